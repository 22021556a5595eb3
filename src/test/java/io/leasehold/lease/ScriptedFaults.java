package io.leasehold.lease;

import io.leasehold.lease.InMemoryLeaseStore.Call;
import io.leasehold.lease.LeaseStoreException.Kind;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the next calls of each kind of {@link InMemoryLeaseStore} do instead of simply answering: one
 * scripted fault per call, in the order the test scripted them, and kinds denied until allowed again.
 */
final class ScriptedFaults {

    /** How long a test waits for a call to arrive at its gate: generous, as it only bounds a broken test. */
    static final Duration ARRIVAL_WITHIN = Duration.ofSeconds(10);

    /** One call's fault. {@code refusal} null: the call acts; {@code gate} before or after it acts. */
    record Fault(Kind refusal, boolean loseAnswer, Gate before, Gate after) {
        static final Fault NONE = new Fault(null, false, null, null);
    }

    private final Map<Call, Queue<Fault>> next = new EnumMap<>(Call.class);
    private final Set<Call> denied = EnumSet.noneOf(Call.class);

    synchronized void script(Call call, Fault fault) {
        next.computeIfAbsent(call, c -> new ArrayDeque<>()).add(fault);
    }

    synchronized void deny(Call call) {
        denied.add(call);
    }

    synchronized void allow(Call call) {
        denied.remove(call);
    }

    /** The fault of the call now made: a standing denial first, else the next scripted one, else none. */
    synchronized Fault take(Call call) {
        if (denied.contains(call)) {
            return new Fault(Kind.DENIED, false, null, null);
        }
        Queue<Fault> queue = next.get(call);
        Fault scripted = queue == null ? null : queue.poll();
        return scripted == null ? Fault.NONE : scripted;
    }

    /**
     * Holds one call until the test releases it: the test awaits the call's arrival instead of
     * sleeping, so "a call is in flight" is a state it can rely on.
     */
    public static final class Gate {
        private final CountDownLatch arrived = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        /** Returns once the call is blocked at this gate; fails the test if none comes. */
        public void awaitHeld() throws InterruptedException {
            if (!arrived.await(ARRIVAL_WITHIN.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("no call arrived at the gate within " + ARRIVAL_WITHIN);
            }
        }

        /** Whether a call is blocked here right now. */
        public boolean held() {
            return arrived.getCount() == 0 && released.getCount() > 0;
        }

        /** Lets the call go on (also before it arrived: it then passes straight through). */
        public void release() {
            released.countDown();
        }

        /** An interrupted wait is an abandoned request: like a bus call given up, its answer is unknown. */
        void pass(Call call) throws LeaseStoreException {
            arrived.countDown();
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LeaseStoreException(Kind.INDETERMINATE, call + " was interrupted while held", e);
            }
        }
    }
}
