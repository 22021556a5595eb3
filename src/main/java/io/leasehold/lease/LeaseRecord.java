package io.leasehold.lease;

import java.time.Instant;

/**
 * The value kept at {@code <bucket>/<key>}. The times are the writer's own readings, for people and
 * logs only: no instance ever decides anything from another machine's clock.
 *
 * <p>A value with a {@link Vacancy} names nobody as holder: {@code holder} is then who wrote it. A
 * released lease may be taken at once; a reset one (the store lost its data after epochs were
 * issued) only after it was seen unchanged for a full duration, like any holder's, because whoever
 * held the lease before the wipe may still be acting. A build that does not know the field reads a
 * vacancy as an ordinary holder and waits a duration: slower, never unsafe.
 */
public record LeaseRecord(Holder holder, long epoch, Instant takenAt, Instant renewedAt, Vacancy vacancy) {

    /** Why nobody holds the lease. */
    public enum Vacancy { RELEASED, RESET }

    /** A holder's value. */
    public LeaseRecord(Holder holder, long epoch, Instant takenAt, Instant renewedAt) {
        this(holder, epoch, takenAt, renewedAt, null);
    }

    /** Given back at a clean stop by the holder of {@code epoch}. */
    public static LeaseRecord released(Holder by, long epoch, Instant at) {
        return new LeaseRecord(by, epoch, null, at, Vacancy.RELEASED);
    }

    /** Written by the first candidate that found the store empty though the epoch floor says epochs were issued. */
    public static LeaseRecord reset(Holder by, Instant at) {
        return new LeaseRecord(by, 0, null, at, Vacancy.RESET);
    }

    public boolean vacant() {
        return vacancy != null;
    }

    /** Whether this value says {@code who} holds the lease. */
    public boolean heldBy(Holder who) {
        return vacancy == null && holder.equals(who);
    }

    public LeaseRecord renewedAt(Instant now) {
        return new LeaseRecord(holder, epoch, takenAt, now, vacancy);
    }
}
