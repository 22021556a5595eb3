package io.leasehold.jetstream;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.Spool;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The claim protocol on a JetStream KV ledger (docs/jetstream-spool.md): every move reads the item's
 * entry and writes the next one at the revision it read, so of two instances moving one item exactly
 * one succeeds, as exactly one rename does in a spool directory. The other finds the item moved and
 * answers false or empty, which is an answer, not an error.
 *
 * <p>Not yet: the listings ({@link #pendingBatch}, {@link #claims}) read every key of the bucket, where
 * the design has a watch feed them; they are correct and slow on a large ledger. Arrivals are rung by
 * {@link JetStreamArrivalWatch} meanwhile, so a running drain does not wait for its poll.
 */
public final class JetStreamSpool implements Spool {

    private final Ledger ledger;
    private final Payloads payloads;
    private final Clock clock;
    private final String instance;

    JetStreamSpool(Ledger ledger, Payloads payloads, Clock clock, String instance) {
        this.ledger = ledger;
        this.payloads = payloads;
        this.clock = clock;
        this.instance = instance;
    }

    @Override
    public List<String> pendingBatch(int max) throws IOException {
        List<String> ids = new ArrayList<>();
        for (String id : ledger.ids()) {
            Optional<Ledger.Seen> seen = ledger.read(id);
            if (seen.isPresent() && seen.get().entry().pending()) {
                ids.add(id);
                if (ids.size() >= max) {
                    break;
                }
            }
        }
        return ids;
    }

    @Override
    public Optional<ClaimName> claim(String id, Instant reading) throws IOException {
        Optional<Ledger.Seen> seen = ledger.read(id);
        if (seen.isEmpty() || !seen.get().entry().pending()) {
            return Optional.empty();
        }
        ClaimName claim = new ClaimName(id, Generation.at(seen.get().entry().attempt()), reading);
        return ledger.replace(id, seen.get(), seen.get().entry().claimed(claim, instance))
                ? Optional.of(claim) : Optional.empty();
    }

    @Override
    public boolean rename(ClaimName from, ClaimName to) throws IOException {
        if (!from.id().equals(to.id())) {
            throw new IllegalArgumentException("a claim is renamed to a claim of the same item: " + from + " → " + to);
        }
        Optional<Ledger.Seen> seen = current(from);
        return seen.isPresent() && ledger.replace(from.id(), seen.get(), seen.get().entry().claimed(to, instance));
    }

    @Override
    public Optional<ClaimName> find(String id, Generation generation) throws IOException {
        return ledger.read(id).filter(seen -> seen.entry().isClaimOf(generation))
                .map(seen -> seen.entry().claimName(id));
    }

    @Override
    public List<ClaimName> claims() throws IOException {
        List<ClaimName> out = new ArrayList<>();
        for (String id : ledger.ids()) {
            Optional<Ledger.Seen> seen = ledger.read(id);
            if (seen.isPresent() && LedgerEntry.CLAIMED.equals(seen.get().entry().state())) {
                out.add(seen.get().entry().claimName(id));
            }
        }
        return out;
    }

    @Override
    public byte[] payload(ClaimName claim) throws IOException {
        Optional<Ledger.Seen> seen = current(claim);
        if (seen.isEmpty()) {
            throw new NoSuchFileException(claim.toString(), null, "the claim is no longer current");
        }
        return payloads.get(seen.get().entry().payload());
    }

    /** A ledger holds no files: nothing under a claim can be a symlink, a FIFO or a second name. */
    @Override
    public boolean isJunk(ClaimName claim) {
        return false;
    }

    /** One key per item: a takeover can never leave a second name behind. */
    @Override
    public boolean keepTaken(ClaimName taken) {
        return true;
    }

    @Override
    public boolean settle(ClaimName claim, ItemState where) throws IOException {
        if (where != ItemState.DONE && where != ItemState.FAILED) {
            throw new IllegalArgumentException("an item settles in done or failed, not " + where);
        }
        Optional<Ledger.Seen> seen = current(claim);
        return seen.isPresent() && ledger.replace(claim.id(), seen.get(), seen.get().entry().settled(where, clock.now()));
    }

    @Override
    public boolean handBack(ClaimName claim) throws IOException {
        Optional<Ledger.Seen> seen = current(claim);
        return seen.isPresent() && ledger.replace(claim.id(), seen.get(), seen.get().entry().handedBack());
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
            if (seen.isEmpty() || ledger.replace(id, seen.get(), seen.get().entry().withRecord(generation, record))) {
                return;
            }
        }
        throw new IOException("the record of " + id + " " + generation + " lost three races with its own claim's moves");
    }

    @Override
    public void dropEarlierRecords(ClaimName claim) throws IOException {
        Optional<Ledger.Seen> seen = current(claim);
        if (seen.isPresent() && seen.get().entry().records().keySet().stream()
                .anyMatch(g -> !g.equals(claim.generation().toString()))) {
            ledger.replace(claim.id(), seen.get(), seen.get().entry().onlyRecordOf(claim.generation()));
        }
    }

    /** The entry, when it is this very claim (generation and reading). */
    private Optional<Ledger.Seen> current(ClaimName claim) throws IOException {
        return ledger.read(claim.id()).filter(seen -> seen.entry().is(claim));
    }
}
