package io.leasehold.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A store call bounded by the time left: an answer in time, a timeout, and no time at all. */
class BoundedCallsTest {

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final BoundedCalls calls = new BoundedCalls(workers);

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    @Test
    void anAnswerInTimeIsTheAnswer() throws LeaseStoreException {
        assertEquals(42L, calls.call(() -> 42L, Duration.ofSeconds(5)));
    }

    @Test
    void aRefusalKeepsItsKind() {
        LeaseStoreException refused = assertThrows(LeaseStoreException.class, () -> calls.call(() -> {
            throw new LeaseStoreException(LeaseStoreException.Kind.CONFLICT, "someone else wrote", null);
        }, Duration.ofSeconds(5)));
        assertEquals(LeaseStoreException.Kind.CONFLICT, refused.kind());
    }

    @Test
    void lessThanAMillisecondLeftIsIndeterminateAtOnceAndTheStoreIsNotAsked() {
        AtomicInteger asked = new AtomicInteger();
        // Before the fix such a call never ended: the timer below a millisecond was refused.
        LeaseStoreException none = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThrows(
                LeaseStoreException.class, () -> calls.call(asked::incrementAndGet, Duration.ofNanos(500_000))));
        assertEquals(LeaseStoreException.Kind.INDETERMINATE, none.kind());
        assertEquals(0, asked.get());
    }
}
