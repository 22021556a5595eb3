package io.leasehold.jetstream;

import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemView;
import java.util.Optional;

/** What the API shows of one ledger entry: its state, the claim's holder and lease, its times. */
final class LedgerViews {

    private LedgerViews() {
    }

    /** With the time the picture orders it by ({@link MirrorCopy.Glimpse#of}): a cursor then lands where it was. */
    static ItemView of(String id, LedgerEntry e, LeaseTerms terms) {
        ItemView view = shown(id, e, terms);
        return view.parked() ? view : view.withSince(MirrorCopy.Glimpse.of(id, 0, e).since());
    }

    private static ItemView shown(String id, LedgerEntry e, LeaseTerms terms) {
        ItemState state = ItemState.parse(e.state()).orElse(null);
        if (state == null) {
            return new ItemView(id, e.state(), null, null, null, null, e.enqueuedAt());
        }
        ItemView view = switch (state) {
            case CLAIMED -> e.claimNameIfWellFormed(id)
                    .map(claim -> ItemView.ofClaim(claim, Optional.ofNullable(e.records().get(e.generation())), terms))
                    .orElse(new ItemView(id, e.state(), null, null, null, null, e.enqueuedAt()));
            case FAILED -> new ItemView(id, e.state(), null, null, null,
                    Optional.ofNullable(e.reason()).orElse("unknown (no reason was recorded)"), e.settledAt());
            case DONE -> new ItemView(id, e.state(), null, null, null, null, e.settledAt());
            case PENDING -> new ItemView(id, e.state(), null, null, null, null, e.enqueuedAt());
        };
        return view.withTimes(e.enqueuedAt(), state == ItemState.DONE || state == ItemState.FAILED ? e.settledAt()
                : null);
    }
}
