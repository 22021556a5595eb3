package io.leasehold.drain;

import io.leasehold.core.ClaimName;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.Outcome;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.LeaseGate;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.Spool;
import io.leasehold.spool.UnfitFileException;
import java.io.IOException;
import java.util.Optional;

/**
 * The look just before work starts: the payload read from the spool and the epoch the gate lets the work
 * go on under, or why there is no work (the claim is gone, the payload too large or junk, the spool silent,
 * the gate refusing).
 */
final class LookBeforeWork {

    /** A listing racing a rename can miss the claim once; look a few times. */
    private static final int LOOKS = 3;

    private final Spool spool;
    private final LeaseGate gate;

    LookBeforeWork(Spool spool, LeaseGate gate) {
        this.spool = spool;
        this.gate = gate;
    }

    /**
     * What the look before work found: the payload and the epoch to work under, an outcome without work
     * (lost, failed, retry), a junk file, or the gate's refusal.
     */
    /** @param unreachable why the payload could not be read when the spool did not answer (not the item's fault) */
    record Look(byte[] payload, long epoch, Outcome outcome, boolean junk, String refused, String unreachable) {
        static Look of(Outcome outcome) {
            return new Look(null, 0, outcome, false, null, null);
        }
    }

    Look at(HeldClaim claim) {
        Optional<byte[]> payload;
        try {
            payload = readIfHeld(claim);
        } catch (UnfitFileException e) {
            // Too large can never succeed; junk is not an item at all (reported by the spool).
            return e.kind() == UnfitFileException.Kind.OVERSIZED ? Look.of(Outcome.failed(e.getMessage()))
                    : new Look(null, 0, null, true, null, null);
        } catch (ItemStore.SpoolUnavailableException e) {
            return new Look(null, 0, null, false, null, "as the spool did not answer while its payload was read ("
                    + e.getMessage() + ")");
        } catch (Throwable e) { // an I/O error, or an Error such as OutOfMemoryError: the attempt's outcome
            return Look.of(Outcome.retry("could not read the payload: " + e));
        }
        if (payload.isEmpty()) {
            return Look.of(Outcome.lost());
        }
        try {
            return new Look(payload.get(), gate.epochForAct(), null, false, null, null);
        } catch (ActRefused refused) {
            return new Look(null, 0, null, false, refused.getMessage(), null);
        }
    }

    /** The payload under the claim's current name, which a renewal may have changed meanwhile; empty when the claim is gone. */
    private Optional<byte[]> readIfHeld(HeldClaim claim) throws IOException {
        ClaimName name = claim.current();
        for (int look = 0; look < LOOKS; look++) {
            Optional<byte[]> payload = spool.payload(name);
            if (payload.isPresent()) {
                return payload;
            }
            Optional<ClaimName> found = spool.find(claim.id(), claim.generation());
            if (found.isEmpty()) {
                return Optional.empty();
            }
            name = found.get(); // the renewal renamed it meanwhile
        }
        return Optional.empty();
    }
}
