package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.ScheduleBook.Fired;
import io.leasehold.spool.ScheduleBook.Mark;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every backend's book of schedules keeps: marks that never go back, a pause by hand. */
public abstract class ScheduleBookContract {

    protected static final Instant T = Instant.parse("2026-12-05T02:00:00Z");

    /** Two books on one store, as two instances open it. */
    protected ScheduleBook book;
    protected ScheduleBook other;

    protected static Mark mark(Instant through, long epoch) {
        return new Mark(through, new Fired(through, "nightly." + through.getEpochSecond(), epoch, "a", through.plusMillis(5)));
    }

    @Test
    void aScheduleNobodyMarkedHasNoMarkAndNoPause() throws Exception {
        assertEquals(Optional.empty(), book.mark("nightly"));
        assertEquals(Optional.empty(), book.pause("nightly"));
    }

    @Test
    void aMarkIsReadBackWithTheItemItLastFiredByEveryInstance() throws Exception {
        book.advance("nightly", mark(T, 7));
        assertEquals(Optional.of(mark(T, 7)), other.mark("nightly"));
        Mark passedOver = new Mark(T.plusSeconds(3600), mark(T, 7).lastFired());
        other.advance("nightly", passedOver);
        assertEquals(Optional.of(passedOver), book.mark("nightly"));
        book.advance("quiet", new Mark(T, null));
        assertEquals(Optional.of(new Mark(T, null)), other.mark("quiet"));
    }

    @Test
    void aMarkNeverGoesBack() throws Exception {
        book.advance("nightly", mark(T.plusSeconds(60), 8));
        other.advance("nightly", mark(T, 7));
        assertEquals(T.plusSeconds(60), book.mark("nightly").orElseThrow().through());
        assertEquals(8, book.mark("nightly").orElseThrow().lastFired().epoch());
    }

    @Test
    void marksMovedByManyWritersAtOnceEndAtTheLatest() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                ScheduleBook writer = w % 2 == 0 ? book : other;
                int offset = w;
                all.add(pool.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        Mark wanted = mark(T.plusSeconds(i * 8L + offset), offset);
                        untilAnswered(() -> {
                            writer.advance("busy", wanted);
                            return null;
                        });
                        Instant seen = untilAnswered(() -> writer.mark("busy")).orElseThrow().through();
                        assertFalse(seen.isBefore(T.plusSeconds(i * 8L + offset)), "a mark went back to " + seen);
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(T.plusSeconds(24 * 8L + 7), book.mark("busy").orElseThrow().through());
    }

    /** A call the store did not answer (busy under the suite's load) is made again, as the firing's next tick would. */
    private static <V> V untilAnswered(java.util.concurrent.Callable<V> call) throws Exception {
        for (int tries = 1; ; tries++) {
            try {
                return call.call();
            } catch (ItemStore.SpoolUnavailableException e) {
                if (tries == 5) {
                    throw e;
                }
            }
        }
    }

    @Test
    void aPauseByHandIsReadByEveryInstanceAndTheLastOneWins() throws Exception {
        book.setPause("nightly", new Pause(true, T, "api"));
        assertEquals(Optional.of(new Pause(true, T, "api")), other.pause("nightly"));
        other.setPause("nightly", new Pause(false, T.plusSeconds(1), "ops"));
        assertEquals(Optional.of(new Pause(false, T.plusSeconds(1), "ops")), book.pause("nightly"));
        assertEquals(Optional.empty(), book.mark("nightly"), "a pause is no mark");
    }

    @Test
    void schedulesKeepMarksOfTheirOwn() throws Exception {
        book.advance("a", mark(T, 1));
        book.advance("a-b", mark(T.plusSeconds(10), 1));
        book.advance("a_b", mark(T.plusSeconds(20), 1));
        assertEquals(T, book.mark("a").orElseThrow().through());
        assertEquals(T.plusSeconds(10), book.mark("a-b").orElseThrow().through());
        assertEquals(T.plusSeconds(20), book.mark("a_b").orElseThrow().through());
        assertTrue(book.mark("b").isEmpty());
    }
}
