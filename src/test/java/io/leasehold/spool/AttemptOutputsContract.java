package io.leasehold.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.HandlerOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What every backend keeps of attempts' outputs: per item and attempt, the latest ten, gone with a purge. */
public abstract class AttemptOutputsContract {

    protected static final Instant T = Instant.parse("2026-12-07T10:00:00Z");

    /** Two views of one store, as two instances open it. */
    protected AttemptOutputs one;
    protected AttemptOutputs other;

    protected static AttemptOutput output(int attempt, String stdout) {
        return AttemptOutput.of(attempt, "exec", T.plusSeconds(attempt), T.plusSeconds(attempt + 1),
                new HandlerOutput(attempt, List.of(new HandlerOutput.Part("stdout", stdout, stdout.length(), "tail"),
                        new HandlerOutput.Part("stderr", "", 0, "tail"))));
    }

    /** The stdout part's text of an output that must be there. */
    protected static String stdout(AttemptOutputs from, String id, int attempt) throws IOException {
        return from.read(id, attempt).orElseThrow(() -> new AssertionError("no output " + id + " " + attempt))
                .parts().get(0).text();
    }

    @Test
    void anOutputKeptByOneInstanceIsReadWholeByAnother() throws Exception {
        AttemptOutput kept = output(1, "line one\nline two ü 🚀\u0007");
        one.keep("item-1", kept);
        assertEquals(Optional.of(kept), other.read("item-1", 1));
        assertEquals(Optional.empty(), other.read("item-1", 2), "no output for an attempt that kept none");
        assertEquals(Optional.empty(), other.read("item-2", 1), "nor for another item");
    }

    @Test
    void idsWithDotsKeepOutputsApart() throws Exception {
        one.keep("a.b", output(1, "dotted"));
        one.keep("a", output(1, "plain"));
        assertEquals("dotted", stdout(other, "a.b", 1));
        assertEquals("plain", stdout(other, "a", 1));
        one.forget("a");
        assertEquals("dotted", stdout(other, "a.b", 1), "a's purge leaves a.b's");
    }

    @Test
    void theSameAttemptKeptAgainReplacesItsOutput() throws Exception {
        one.keep("item-1", output(2, "first"));
        other.keep("item-1", output(2, "second"));
        assertEquals("second", stdout(one, "item-1", 2));
    }

    @Test
    void onlyTheLatestTenAttemptsKeepTheirOutput() throws Exception {
        for (int n = 1; n <= 15; n++) {
            one.keep("busy", output(n, "attempt " + n));
        }
        for (int n = 1; n <= 5; n++) {
            assertEquals(Optional.empty(), other.read("busy", n), "attempt " + n + " is older than the latest ten");
        }
        for (int n = 6; n <= 15; n++) {
            assertEquals("attempt " + n, stdout(other, "busy", n));
        }
    }

    @Test
    void forgetRemovesEveryOutputOfTheItemAndOnlyThose() throws Exception {
        one.keep("gone", output(1, "x"));
        one.keep("gone", output(2, "y"));
        one.keep("stays", output(1, "z"));
        other.forget("gone");
        assertEquals(Optional.empty(), one.read("gone", 1));
        assertEquals(Optional.empty(), one.read("gone", 2));
        assertEquals("z", stdout(one, "stays", 1));
        other.forget("never-kept"); // nothing there: no error
    }

    /** Two holders keeping outputs of one item at once (a late holder and its taker): each read is a whole one. */
    @Test
    void outputsKeptAtOnceAreEachReadWhole() throws Exception {
        ExecutorService three = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (AttemptOutputs writer : List.of(one, other)) {
                done.add(three.submit(() -> {
                    for (int i = 0; i < 30; i++) {
                        writer.keep("raced", output(3, "x".repeat(100 + i)));
                    }
                    return null;
                }));
            }
            done.add(three.submit(() -> {
                for (int i = 0; i < 60; i++) {
                    one.read("raced", 3).ifPresent(o -> assertTrue(o.parts().get(0).text().startsWith("x".repeat(100))));
                }
                return null;
            }));
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            three.shutdownNow();
        }
        assertEquals("x".repeat(129), stdout(one, "raced", 3));
    }

    /** A late holder's attempt kept after its taker's later one: neither drops the other. */
    @Test
    void anEarlierAttemptKeptLateDropsNoLaterOne() throws Exception {
        one.keep("taken", output(2, "the taker's attempt 2"));
        other.keep("taken", output(1, "the late holder's attempt 1"));
        assertEquals("the taker's attempt 2", stdout(one, "taken", 2));
        assertEquals("the late holder's attempt 1", stdout(one, "taken", 1));
    }

    /** Numbers that kept nothing (an abandoned attempt, a silent one) leave no older output past the bound. */
    @Test
    void aGapInTheNumbersKeepsNoOutputPastTheBound() throws Exception {
        one.keep("gappy", output(1, "attempt 1"));
        one.keep("gappy", output(2, "attempt 2"));
        for (int n = 4; n <= 13; n++) {
            if (n != 11) {
                one.keep("gappy", output(n, "attempt " + n));
            }
        }
        assertEquals(Optional.empty(), other.read("gappy", 1), "attempt 1 is older than 13 - 10");
        assertEquals(Optional.empty(), other.read("gappy", 2), "attempt 2 is older than 13 - 10");
        assertEquals("attempt 4", stdout(other, "gappy", 4));
    }
}
