package io.leasehold.jetstream;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.core.ItemId;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.SeenUnchanged;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ClaimAges;
import io.leasehold.spool.ItemListing;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.SpoolCounts;
import io.leasehold.spool.StagedBatch;
import io.leasehold.spool.Staleness;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The API's view of a JetStream spool. An enqueue stores the payload under a name of its own, then
 * creates the item's ledger entry: the create is the commit, refused when the id is known. Cancel,
 * retry and purge are moves like the drain's, at the revision they read, so they race the drain safely.
 *
 * <p>Counts and listings come from the ledger's picture in memory ({@link LedgerMirror}): what this instance
 * wrote shows at once, another instance's moves after the watch's lag. A lookup reads the entry itself.
 */
public final class JetStreamItemStore implements ItemStore {

    private final Ledger ledger;
    private final Payloads payloads;
    private final JetStreamSpool spool;
    private final LeaseTerms terms;
    private final Clock clock;
    private final Duration batchStaleAfter;
    private final OwedTakeBacks owed;
    /** Staged entries as this instance last saw them, for {@link #recover}'s quiet span. */
    private final SeenUnchanged quietStaged;
    private volatile Consumer<String> arrivals = id -> { };
    private final JetStreamEnqueue enqueues;
    private final JetStreamOutputs outputs;

    /** {@code tmpMaxAge}: past this, housekeeping takes a reservation or a staged batch for a dead enqueue's. */
    JetStreamItemStore(Ledger ledger, Payloads payloads, JetStreamSpool spool, LeaseTerms terms, Clock clock,
            Duration tmpMaxAge) {
        this.ledger = ledger;
        // Half: housekeeping judges a staged entry's age by its own clock, against this instance's timestamp.
        this.batchStaleAfter = tmpMaxAge.dividedBy(2);
        this.payloads = payloads;
        this.owed = new OwedTakeBacks(ledger, payloads);
        this.quietStaged = new SeenUnchanged(clock);
        this.spool = spool;
        this.terms = terms;
        this.clock = clock;
        this.enqueues = new JetStreamEnqueue(ledger, payloads, owed, terms, clock, id -> arrivals.accept(id));
        this.outputs = new JetStreamOutputs(ledger.connection(), ledger.bucket(), ledger.replicas());
    }

    /** The attempts' outputs beside this ledger, which a purge removes with the item. */
    JetStreamOutputs outputs() {
        return outputs;
    }

    /** Reserve, upload, commit: {@link JetStreamEnqueue}. */
    @Override
    public ItemView enqueue(String id, InputStream payload, long maxBytes, Instant runAt) throws IOException {
        return enqueues.enqueue(id, payload, maxBytes, runAt);
    }

    @Override
    public StagedBatch stageBatch(long maxBytes) {
        return new JetStreamStagedBatch(ledger, payloads, clock, this::newId, id -> arrivals.accept(id), maxBytes,
                batchStaleAfter);
    }

    /**
     * Finishes batches and reservations a crash left half-way (see {@link BatchMarkers#recover}), found in
     * the ledger's picture. Returns how many items it finished.
     */
    int recover(Staleness staleness) throws IOException {
        owed.payAll();
        List<MirrorCopy.Glimpse> staged = ledger.mirror().copy().inState(LedgerEntry.STAGED, Integer.MAX_VALUE, g -> true);
        return BatchMarkers.recover(ledger, payloads, staged, staleness, quietStaged, id -> arrivals.accept(id));
    }

    @Override
    public Optional<ItemView> lookup(String id) throws IOException {
        ItemId.require(id);
        // A staged item (a batch not committed yet) is nobody's to see: its id is only known.
        return ledger.read(id).filter(seen -> !seen.entry().staged()).map(seen -> view(id, seen.entry())
                .withHistory(AttemptRecord.historyOf(seen.entry().latestRecord())));
    }

    /** From the entry read now: inline, or its payload object (gone meanwhile: purged, so no item). */
    @Override
    public Optional<byte[]> payload(String id) throws IOException {
        ItemId.require(id);
        Optional<Ledger.Seen> seen = ledger.read(id).filter(s -> !s.entry().staged());
        if (seen.isEmpty()) {
            return Optional.empty();
        }
        try {
            return payloads.of(seen.get().entry());
        } catch (io.leasehold.spool.UnfitFileException e) {
            throw new UnfitPayloadException(id, e.getMessage());
        }
    }

    @Override
    public List<ItemView> list(ItemState state, ItemListing page) throws IOException {
        List<ItemView> out = new ArrayList<>();
        MirrorCopy copy = ledger.mirror().copy();
        // claimed lists the held claims: a parked one is listed as scheduled or retrying
        for (MirrorCopy.Glimpse item : copy.inState(state.label(), page.after(), page.limit(),
                g -> (state != ItemState.CLAIMED || !copy.parked(g.id()))
                        && (page.idMatches(g.id()) || page.matches(view(g.id(), g.entry()))))) {
            out.add(view(item.id(), item.entry()));
        }
        return out;
    }

    /**
     * From the picture's claims, soonest run first (a parked claim's reading orders as its runAt does); the
     * cursor is a runAt, so every claim is looked at: parked ones are few beside the items.
     */
    @Override
    public List<ItemView> listParked(String shownAs, ItemListing page) throws IOException {
        List<ItemView> out = new ArrayList<>();
        for (MirrorCopy.Glimpse item : ledger.mirror().copy().inState(LedgerEntry.CLAIMED, page.limit(), g -> {
            ItemView v = view(g.id(), g.entry());
            return shownAs.equals(v.state()) && page.past(ItemListing.Position.of(v)) && page.matches(v);
        })) {
            out.add(view(item.id(), item.entry()));
        }
        return out;
    }

    @Override
    public SpoolCounts counts() throws IOException {
        return ledger.mirror().copy().counts(clock.now());
    }

    /**
     * The picture's counts as they are; zeros before the picture is started (a scrape never starts it: that
     * calls the server) and whole. No watch yet: the gauges read zeros, readiness says why.
     */
    @Override
    public SpoolCounts countsNow() {
        return ledger.mirrorIfStarted().flatMap(LedgerMirror::copyNow).map(copy -> copy.counts(clock.now()))
                .orElse(SpoolCounts.NONE);
    }

    /** From the picture as it is, every holder's claims; none before the picture is started and whole. */
    @Override
    public ClaimAges claimAgesNow(Duration bound) {
        return ledger.mirrorIfStarted().flatMap(LedgerMirror::copyNow).map(copy -> copy.claimAges(clock.now(), bound))
                .orElse(ClaimAges.NONE);
    }

    @Override
    public String newId() {
        return ItemId.timeOrdered(clock.now());
    }

    @Override
    public void whenArrived(Consumer<String> arrivals) {
        this.arrivals = arrivals;
    }

    /**
     * A claim of its own records "cancelled" as its verdict and settles the item in failed: a pending
     * item's claim, or a scheduled one's, taken from its parked claim by one compare-and-set (which a
     * drain taking it at its runAt would win or lose alike).
     */
    @Override
    public ItemView cancel(String id) throws IOException {
        Optional<ClaimName> mine = spool.claim(ItemId.require(id), clock.now());
        if (mine.isEmpty()) {
            mine = takeScheduled(id);
        }
        if (mine.isEmpty()) {
            throw refusal(id, ItemState.PENDING);
        }
        AttemptRecord own = spool.record(id, mine.get().generation()).orElse(AttemptRecord.note(0, ""));
        spool.writeRecord(id, mine.get().generation(), own.then(AttemptRecord.Kind.FAILED, "cancelled"));
        if (!spool.settle(mine.get(), ItemState.FAILED)) {
            throw new IOException("the cancel's own claim " + mine.get() + " was taken before it could be settled");
        }
        return lookup(id).orElseThrow(() -> new NoSuchItemException(id));
    }

    private Optional<ClaimName> takeScheduled(String id) throws IOException {
        Optional<Ledger.Seen> seen = ledger.read(id);
        Optional<ClaimName> parked = seen.flatMap(s -> s.entry().claimNameIfWellFormed(id))
                .filter(c -> seen.get().entry().isClaimOf(c.generation()));
        if (parked.isEmpty() || !ItemView.SCHEDULED.equals(view(id, seen.get().entry()).state())) {
            return Optional.empty();
        }
        ClaimName mine = new ClaimName(id, Generation.at(1, spool.holderTag()), clock.now());
        if (!spool.rename(parked.get(), mine)) {
            return Optional.empty();
        }
        spool.writeRecord(id, mine.generation(), spool.record(id, parked.get().generation())
                .orElse(AttemptRecord.note(0, "")).as(AttemptRecord.Kind.NOTE));
        return Optional.of(mine);
    }

    @Override
    public ItemView retry(String id) throws IOException {
        Optional<Ledger.Seen> seen = ledger.read(ItemId.require(id));
        if (seen.isPresent() && seen.get().entry().state().equals(ItemState.FAILED.label())) {
            outputs.forget(id); // its attempts count from 1 again: the earlier run's outputs would pass for the new run's
        }
        if (seen.isEmpty() || !seen.get().entry().state().equals(ItemState.FAILED.label())
                || !ledger.replace(id, seen.get(), seen.get().entry().retried())) {
            throw refusal(id, ItemState.FAILED);
        }
        arrivals.accept(id);
        return lookup(id).orElseThrow(() -> new NoSuchItemException(id));
    }

    @Override
    public boolean purge(String id, ItemState settled) throws IOException {
        ItemStore.requireSettled(settled);
        Optional<Ledger.Seen> seen = ledger.read(ItemId.require(id));
        if (seen.isEmpty() || !seen.get().entry().state().equals(settled.label())) {
            return false;
        }
        // The outputs first: a crash in between leaves an item without them, never them for a later item of the id.
        outputs.forget(id);
        if (!ledger.remove(id, seen.get())) {
            return false;
        }
        payloads.delete(seen.get().entry().payload()); // after the entry: a crash in between leaves an orphan only
        return true;
    }

    /**
     * From the ledger's picture, oldest settled first, a page at a time: each page is copied out under the
     * picture's lock and the walk goes on after the last item it answered, so the lock is never held for
     * long and nothing but a page is copied. A picture made afresh meanwhile is walked from the same place.
     */
    @Override
    public SettledWalk walkSettled(ItemState settled, boolean reasons) throws IOException {
        ItemStore.requireSettled(settled);
        ledger.mirror().copy(); // no picture yet: unavailable now, not an empty walk
        return new SettledWalk() {
            private MirrorCopy.Glimpse after;

            @Override
            public List<Settled> next(int max) throws IOException {
                List<MirrorCopy.Glimpse> page = ledger.mirror().copy().after(settled.label(), after, max);
                List<Settled> out = new ArrayList<>(page.size());
                for (MirrorCopy.Glimpse g : page) {
                    String reason = !reasons || settled != ItemState.FAILED ? null
                            : Optional.ofNullable(g.entry().reason()).orElse("unknown (no reason was recorded)");
                    out.add(new Settled(g.id(), g.since(), reason));
                }
                if (!page.isEmpty()) {
                    after = page.get(page.size() - 1);
                }
                return out;
            }

            @Override
            public void close() {
            }
        };
    }

    private IOException refusal(String id, ItemState needed) throws IOException {
        Optional<ItemView> now = lookup(id);
        return now.isEmpty() ? new NoSuchItemException(id) : new WrongStateException(id, now.get().state(), needed.label());
    }

    private ItemView view(String id, LedgerEntry e) {
        return LedgerViews.of(id, e, terms);
    }
}
