package io.leasehold.lease;

import java.time.Instant;

/**
 * Where this process's side of the lease stands, as one immutable value: every transition replaces
 * it by compare-and-set, so a step, the deadline timer and the release never undo each other.
 *
 * @param revision the store revision of this holder's last write (held only)
 * @param sentAtNanos when the last successful renewal (or the take) was sent, on the monotonic clock
 */
record LeaseState(Mode mode, long epoch, long revision, long sentAtNanos, Instant takenAt) {

    enum Mode { WAITING, HELD, UNLEASED, LOST, RELEASED }

    static final LeaseState WAITING = new LeaseState(Mode.WAITING, 0, 0, 0, null);
    static final LeaseState UNLEASED = new LeaseState(Mode.UNLEASED, 0, 0, 0, null);
    static final LeaseState RELEASED = new LeaseState(Mode.RELEASED, 0, 0, 0, null);

    static LeaseState held(long epoch, long revision, long sentAtNanos, Instant takenAt) {
        return new LeaseState(Mode.HELD, epoch, revision, sentAtNanos, takenAt);
    }

    LeaseState renewed(long newRevision, long newSentAtNanos) {
        return new LeaseState(Mode.HELD, epoch, newRevision, newSentAtNanos, takenAt);
    }

    /**
     * A renewal whose answer was lost did land: the deadline counts from {@code landedSentAtNanos}, the
     * send time of the first unanswered renewal (the one that landed was sent no earlier).
     */
    LeaseState atRevision(long newRevision, long landedSentAtNanos) {
        return new LeaseState(Mode.HELD, epoch, newRevision, Math.max(sentAtNanos, landedSentAtNanos), takenAt);
    }

    LeaseState lost() {
        return new LeaseState(Mode.LOST, epoch, 0, sentAtNanos, takenAt);
    }

    boolean is(Mode wanted) {
        return mode == wanted;
    }

    /** Lost and released are for good: nothing leaves them. */
    boolean terminal() {
        return mode == Mode.LOST || mode == Mode.RELEASED;
    }
}
