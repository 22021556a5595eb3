package io.leasehold.jetstream;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.core.HolderTag;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.PastAttempt;
import io.leasehold.spool.Spool;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * The claim protocol on a JetStream KV ledger (docs/jetstream-spool.md): every move reads the item's
 * entry and writes the next one at the revision it read, so of two instances moving one item exactly
 * one succeeds, as exactly one rename does in a spool directory. The other finds the item moved and
 * answers false or empty, which is an answer, not an error.
 *
 * <p>The listings ({@link #pendingBatch}, oldest first, and {@link #claims}) come from the ledger's picture
 * in memory ({@link LedgerMirror}), at no cost on the server; a listed item may have moved since, which
 * the move's compare-and-set finds.
 */
public final class JetStreamSpool implements Spool {

    private static final Logger LOG = Logger.getLogger(JetStreamSpool.class);

    private final Ledger ledger;
    private final Payloads payloads;
    private final Clock clock;
    private final String instance;
    private final HolderTag tag;
    /**
     * The entry of each claim this instance holds, as it last wrote it: a renewal or a settlement moves
     * from it at once instead of reading the entry first. It may be stale; the compare-and-set decides,
     * and a refused move reads the entry before it gives up.
     */
    private final Map<String, Ledger.Seen> held = new ConcurrentHashMap<>();

    /** With a tag made of {@code instance} itself: for tests, whose instances are named "a", "b". */
    JetStreamSpool(Ledger ledger, Payloads payloads, Clock clock, String instance) {
        this(ledger, payloads, clock, instance, HolderTag.named(instance));
    }

    JetStreamSpool(Ledger ledger, Payloads payloads, Clock clock, String instance, HolderTag tag) {
        this.tag = tag;
        this.ledger = ledger;
        this.payloads = payloads;
        this.clock = clock;
        this.instance = instance;
    }

    @Override
    public HolderTag holderTag() {
        return tag;
    }

    @Override
    public List<String> pendingBatch(int max) throws IOException {
        List<String> ids = new ArrayList<>(max);
        for (MirrorCopy.Glimpse item : ledger.mirror().copy().inState(LedgerEntry.PENDING, max, g -> true)) {
            ids.add(item.id());
        }
        return ids;
    }

    @Override
    public Optional<ClaimName> claim(String id, Instant reading) throws IOException {
        Optional<Ledger.Seen> seen = ledger.read(id);
        if (seen.isEmpty() || !seen.get().entry().pending()) {
            return Optional.empty();
        }
        ClaimName claim = new ClaimName(id, Generation.at(seen.get().entry().attempt(), tag), reading);
        Optional<Ledger.Seen> mine = ledger.move(id, seen.get(), seen.get().entry().claimed(claim, instance));
        mine.ifPresent(m -> held.put(id, m));
        return mine.map(m -> claim);
    }

    @Override
    public boolean restamp(ClaimName from, ClaimName to) throws IOException {
        Spool.requireRestamp(from, to);
        return rename(from, to);
    }

    /** One key per item, so a takeover can never leave a second name behind; nothing in a ledger can be junk. */
    @Override
    public Optional<ClaimName> takeOver(ClaimName seen, Instant reading) throws IOException {
        ClaimName taken = Spool.takerOf(seen, record(seen.id(), seen.generation()), tag, reading);
        return rename(seen, taken) ? Optional.of(taken) : Optional.empty();
    }

    /** The ledger entry of claim {@code from} names claim {@code to} of the same item, if it still names {@code from}. */
    boolean rename(ClaimName from, ClaimName to) throws IOException {
        if (!from.id().equals(to.id())) {
            throw new IllegalArgumentException("a claim is renamed to a claim of the same item: " + from + " → " + to);
        }
        return moveFrom(from, entry -> entry.claimed(to, instance), true);
    }

    @Override
    public Optional<ClaimName> find(String id, Generation generation) throws IOException {
        return ledger.read(id).filter(seen -> seen.entry().isClaimOf(generation))
                .flatMap(seen -> seen.entry().claimNameIfWellFormed(id));
    }

    @Override
    public List<ClaimName> claims() throws IOException {
        List<ClaimName> out = new ArrayList<>();
        for (MirrorCopy.Glimpse item : ledger.mirror().copy().inState(LedgerEntry.CLAIMED, Integer.MAX_VALUE,
                g -> true)) {
            Optional<ClaimName> name = item.entry().claimNameIfWellFormed(item.id());
            if (name.isPresent()) {
                out.add(name.get());
            } else {
                LOG.warnf("the ledger entry of %s is claimed but names no claim (generation %s, reading %s): "
                        + "left alone", item.id(), item.entry().generation(), item.entry().reading());
            }
        }
        return out;
    }

    @Override
    public Optional<byte[]> payload(ClaimName claim) throws IOException {
        // Read, not remembered: a claim taken over meanwhile must not read on as if it were still held.
        Optional<Ledger.Seen> seen = ledger.read(claim.id()).filter(s -> s.entry().is(claim));
        if (seen.isEmpty()) {
            return Optional.empty();
        }
        return payloads.of(seen.get().entry()); // gone meanwhile (settled and purged, or lost): nothing to work on
    }

    @Override
    public boolean settle(ClaimName claim, ItemState where) throws IOException {
        if (where != ItemState.DONE && where != ItemState.FAILED) {
            throw new IllegalArgumentException("an item settles in done or failed, not " + where);
        }
        return moveFrom(claim, entry -> entry.settled(where, clock.now()), false);
    }

    @Override
    public boolean settleDone(ClaimName claim, PastAttempt attempt) throws IOException {
        return moveFrom(claim, entry -> entry.settledDone(clock.now(), attempt), false);
    }

    @Override
    public boolean handBack(ClaimName claim) throws IOException {
        return moveFrom(claim, LedgerEntry::handedBack, false);
    }

    @Override
    public Optional<AttemptRecord> record(String id, Generation generation) throws IOException {
        return ledger.read(id).map(seen -> seen.entry().records().get(generation.toString()));
    }

    /** Only while the claim of {@code generation} holds the item; a record of a lost claim is dropped. */
    @Override
    public void writeRecord(String id, Generation generation, AttemptRecord record) throws IOException {
        for (int look = 0; look < 3; look++) { // a renewal may move the revision between the read and the write
            Optional<Ledger.Seen> seen = ledger.read(id).filter(s -> s.entry().isClaimOf(generation));
            if (seen.isEmpty()) {
                return;
            }
            Optional<Ledger.Seen> written = ledger.move(id, seen.get(), seen.get().entry().withRecord(generation, record));
            if (written.isPresent()) {
                held.computeIfPresent(id, (k, old) -> written.get());
                return;
            }
        }
        throw new IOException("the record of " + id + " " + generation + " lost three races with its own claim's moves");
    }

    @Override
    public void dropEarlierRecords(ClaimName claim) throws IOException {
        Optional<Ledger.Seen> seen = remembered(claim);
        if (seen.isEmpty()) {
            seen = read(claim);
        }
        if (seen.isPresent() && seen.get().entry().records().keySet().stream()
                .anyMatch(g -> !g.equals(claim.generation().toString()))) {
            moveFrom(claim, entry -> entry.onlyRecordOf(claim.generation()), true);
        }
    }

    /**
     * Moves the claim's entry to {@code next(entry)}: from the entry as this instance last wrote it when it
     * has it, else from a fresh read; a move refused from a remembered entry reads and tries once more, for
     * the remembered one may be stale. False when the entry is not this claim any more.
     */
    private boolean moveFrom(ClaimName claim, UnaryOperator<LedgerEntry> next, boolean stillHeld) throws IOException {
        Optional<Ledger.Seen> start = remembered(claim);
        for (int look = 0; look < 2; look++) {
            Optional<Ledger.Seen> from = look == 0 && start.isPresent() ? start : read(claim);
            if (from.isEmpty()) {
                held.remove(claim.id());
                return false;
            }
            Optional<Ledger.Seen> moved = ledger.move(claim.id(), from.get(), next.apply(from.get().entry()));
            if (moved.isPresent()) {
                if (stillHeld) {
                    held.put(claim.id(), moved.get());
                } else {
                    held.remove(claim.id());
                }
                return true;
            }
            if (look == 0 && start.isEmpty()) {
                break; // refused from a fresh read: someone else moved it
            }
        }
        held.remove(claim.id());
        return false;
    }

    private Optional<Ledger.Seen> remembered(ClaimName claim) {
        return Optional.ofNullable(held.get(claim.id())).filter(seen -> seen.entry().is(claim));
    }

    /** The entry, when it is this very claim (generation and reading). */
    private Optional<Ledger.Seen> read(ClaimName claim) throws IOException {
        return ledger.read(claim.id()).filter(seen -> seen.entry().is(claim));
    }
}
