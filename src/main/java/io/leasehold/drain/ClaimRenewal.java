package io.leasehold.drain;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.HeldClaim;
import io.leasehold.spool.Spool;
import java.io.IOException;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Keeps this instance's claims fresh: each renewal renames a claim from the name it last wrote to
 * one with the current reading. A rename that finds nothing means another instance took the claim
 * over; the claim is marked lost, which stops its work at once.
 */
final class ClaimRenewal {

    private static final Logger LOG = Logger.getLogger(ClaimRenewal.class);

    private final Spool spool;
    private final Clock clock;
    private final DrainEvents events;

    ClaimRenewal(Spool spool, Clock clock, DrainEvents events) {
        this.spool = spool;
        this.clock = clock;
        this.events = events;
    }

    void renewAll(Collection<HeldClaim> claims) {
        Instant now = clock.now();
        for (HeldClaim claim : claims) {
            if (!claim.isHeld()) {
                continue;
            }
            // The renewal thread's lines about a claim name its item, as its worker's do.
            try (ItemLogContext context = ItemLogContext.of(claim)) {
                try {
                    renew(claim, now);
                } catch (IOException e) {
                    // Uncertain, not lost: the claim keeps its last reading and the next tick tries again.
                    LOG.warnf("renewal of %s failed: %s", claim.current(), e.getMessage());
                }
            }
        }
    }

    private void renew(HeldClaim claim, Instant now) throws IOException {
        ClaimName from = claim.current();
        ClaimName to = from.renewedAt(now);
        if (to.equals(from)) {
            // A clock that stands still (or a second renewal within the same millisecond) must still give
            // a new name: takers judge a holder alive by its claim's name changing (TakeoverRule.OBSERVED).
            to = from.renewedAt(from.reading().plusMillis(1));
        }
        if (spool.restamp(from, to)) {
            claim.renamedTo(to);
            events.renewed(claim.id());
            return;
        }
        if (!claim.isHeld()) {
            return; // the worker moved it meanwhile (settled, parked or handed back)
        }
        Optional<ClaimName> found = spool.find(claim.id(), claim.generation());
        if (found.isPresent()) {
            claim.renamedTo(found.get());
            return;
        }
        if (claim.markLost()) {
            LOG.warnf("claim %s was taken over by another instance; its work is stopped", from);
            events.lost(claim.id());
        }
    }
}
