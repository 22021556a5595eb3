package io.leasehold.lease;

import java.time.Instant;

/**
 * How this process stands to the controller lease right now, as {@code /lease}, readiness and the
 * log show it. Immutable: a new one replaces the old at each change. Its JSON leaves out what is
 * null ({@code io.leasehold.api.StandingJson}), so the lease needs no JSON library.
 *
 * @param mode held, waiting, unleased, no-bus or lost
 * @param epoch the epoch this process acts under; when waiting, the holder's as last seen (whether this
 *     process acts beside it under that epoch, in claims mode, the reason says); 0 when none
 * @param holder who holds the lease as last seen, if anyone
 * @param renewedAt when this process last renewed it (held only)
 * @param reason why the mode is what it is, for people
 * @param reset what was said when the store was found behind the epoch floor, if it was
 */
public record Standing(String mode, long epoch, Holder holder, Instant renewedAt, String reason, Reset reset) {

    /** The lease store was found behind the highest epoch ever issued, and its revisions were moved. */
    public record Reset(Instant at, long storeWasAt, long floor, String said) {
    }

    public static Standing noBus() {
        return new Standing("no-bus", 0, null, null,
                "no leasehold.nats.url (or NATS_URL) is set: acting without a controller lease, epoch 0", null);
    }

    Standing with(String newMode, long newEpoch, Holder newHolder, Instant newRenewedAt, String newReason) {
        return new Standing(newMode, newEpoch, newHolder, newRenewedAt, newReason, reset);
    }

    Standing withReset(Reset newReset) {
        return new Standing(mode, epoch, holder, renewedAt, reason, newReset);
    }

    public boolean lost() {
        return mode.equals("lost");
    }
}
