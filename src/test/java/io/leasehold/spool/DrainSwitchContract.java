package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What every backend keeps of the drain's pause: one record for the whole fleet, read by every instance. */
public abstract class DrainSwitchContract {

    protected static final Instant T = Instant.parse("2026-12-07T10:00:00Z");

    /** Two switches on one store, as two instances open it. */
    protected DrainSwitch one;
    protected DrainSwitch other;

    @Test
    void aDrainNeverPausedHasNoPause() throws Exception {
        assertEquals(Optional.empty(), one.pause());
    }

    @Test
    void aPauseByOneInstanceIsReadByEveryOtherAndAResumeReplacesIt() throws Exception {
        one.setPause(new Pause(true, T, "api on a pid 1"));
        assertEquals(Optional.of(new Pause(true, T, "api on a pid 1")), other.pause());
        other.setPause(new Pause(false, T.plusSeconds(60), "command line on b pid 2"));
        assertEquals(Optional.of(new Pause(false, T.plusSeconds(60), "command line on b pid 2")), one.pause());
    }

    @Test
    void aPauseOutlivesTheInstanceThatMadeIt() throws Exception {
        one.setPause(new Pause(true, T, "api"));
        assertEquals(Optional.of(new Pause(true, T, "api")), reopened().pause());
    }

    @Test
    void anAuthorWithALineBreakIsKeptOnOneLine() throws Exception {
        one.setPause(new Pause(true, T, "api\nparsed=false"));
        assertEquals(Optional.of(new Pause(true, T, "api parsed=false")), other.pause());
    }

    /** Two instances pausing and resuming at once: the last write wins whole, and no read ever sees half of one. */
    @Test
    void pausesAndResumesFromTwoInstancesAtOnceAreEachReadWhole() throws Exception {
        java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (DrainSwitch writer : java.util.List.of(one, other)) {
                done.add(two.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        writer.setPause(new Pause(i % 2 == 0, T.plusSeconds(i), "writer " + System.identityHashCode(writer)));
                    }
                    return null;
                }));
            }
            done.add(two.submit(() -> {
                for (int i = 0; i < 80; i++) {
                    one.pause(); // throws on a record read half-written
                }
                return null;
            }));
            for (java.util.concurrent.Future<?> f : done) {
                f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
        } finally {
            two.shutdownNow();
        }
        Pause last = one.pause().orElseThrow();
        assertEquals(false, last.paused(), "each writer's last write (i = 39) is a resume");
        assertEquals(T.plusSeconds(39), last.since());
    }

    /** A switch opened anew on the same store, as after a restart. */
    protected abstract DrainSwitch reopened() throws Exception;
}
