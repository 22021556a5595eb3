package io.leasehold.jetstream;

import io.leasehold.core.Clock;
import io.leasehold.spool.BatchLines;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.StagedBatch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * POST /items/batch on the JetStream spool, all or nothing. Each line's item is created in the ledger as
 * {@code staged} (its id known, so a second enqueue is refused, but invisible and unclaimable) as soon as
 * its line is read, its payload in the entry when small, else stored afterwards under the name the entry
 * gives. The creates are sent without waiting for each answer ({@link OverlappedWrites}), which are taken
 * in as they come; a refused one refuses the batch, naming its line, also when a later line is bad
 * ({@link #refusedSoFar}). {@link #commit()} waits for every answer, writes the batch's marker (the
 * commit point: from then on the batch ends whole), turns every staged entry pending, the same overlapped
 * way, then removes the marker. Closed without a commit, every staged entry and payload goes. A batch left
 * half-way by a crash is finished by {@link BatchMarkers#recover}: rolled forward when its marker exists,
 * back when it does not.
 */
final class JetStreamStagedBatch implements StagedBatch {

    private static final Logger LOG = Logger.getLogger(JetStreamStagedBatch.class);
    /**
     * Inline payload a batch holds in memory until its commit, in base64 characters (each staged entry is
     * written again, whole, when it turns pending); past this, payloads are stored as objects, as larger
     * ones always are.
     */
    static final long INLINE_BUDGET = 1024 * 1024;
    /** Creates in flight at most: past this, their answers are awaited before the next line's is sent. */
    static final int WINDOW = 256;

    private final Ledger ledger;
    private final Payloads payloads;
    private final Clock clock;
    private final Supplier<String> newId;
    private final Consumer<String> arrivals;
    private final long maxBytes;
    private final String batch = "batch-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private final BatchLines lines = new BatchLines();
    private final OverlappedWrites creates;
    /** Every line's item sent so far, in line order: what a rollback looks at. */
    private final List<Line> staged = new ArrayList<>();
    /** Every line's staged entry as created, in line order. */
    private final List<Ledger.Seen> created = new ArrayList<>();
    private long inlineHeld;
    private final long startedNanos;
    private final Duration staleAfter;
    private Bounded open;
    private String openId;
    private boolean finished;

    /** A line's item: its id, its line, the object its payload went to (null: inline). */
    private record Line(int line, String id, String payload) {
    }

    /**
     * {@code staleAfter}: staged longer than this (on this instance's own clock) the batch is refused
     * rather than committed, for housekeeping may by then take its staged entries for a dead batch's.
     */
    JetStreamStagedBatch(Ledger ledger, Payloads payloads, Clock clock, Supplier<String> newId,
            Consumer<String> arrivals, long maxBytes, Duration staleAfter) {
        this.ledger = ledger;
        this.startedNanos = clock.monotonicNanos();
        this.staleAfter = staleAfter;
        this.payloads = payloads;
        this.clock = clock;
        this.newId = newId;
        this.arrivals = arrivals;
        this.maxBytes = maxBytes;
        this.creates = new OverlappedWrites(ledger);
    }

    @Override
    public OutputStream payload(int line, String id) {
        lines.opening(line, id);
        openId = id;
        open = new Bounded();
        return open;
    }

    @Override
    public void item(int line, String id) throws IOException {
        lines.closing(line);
        String named = openId != null ? openId : id != null ? id : newId.get();
        if (openId == null) {
            lines.admit(line, named);
        }
        byte[] payload = open.toByteArray();
        open = null;
        long encoded = 4L * ((payload.length + 2) / 3);
        if (payload.length <= LedgerEntry.INLINE_MAX && inlineHeld + encoded <= INLINE_BUDGET) {
            inlineHeld += encoded;
            staged.add(new Line(line, named, null));
            creates.send(new OverlappedWrites.Write(named, null, LedgerEntry.stagedInline(batch, clock.now(), payload)));
            refused(creates.inFlight() >= WINDOW ? creates.await() : creates.awaitAnswered());
            return;
        }
        // Known before its payload is stored, and found refused before the upload rather than after it.
        String object = Payloads.freshName(named);
        staged.add(new Line(line, named, object));
        creates.send(new OverlappedWrites.Write(named, null, LedgerEntry.staged(batch, clock.now(), object)));
        refused(creates.await());
        payloads.put(object, new ByteArrayInputStream(payload), maxBytes);
    }

    /** Takes in answered creates; the first refused refuses the batch, naming its line. */
    private void refused(List<OverlappedWrites.Outcome> answered) throws IOException {
        for (OverlappedWrites.Outcome done : answered) {
            if (done.landed().isEmpty()) {
                throw new ItemStore.DuplicateItemException(done.write().id(), staged.get(created.size()).line());
            }
            created.add(done.landed().get());
        }
    }

    /** The batch's own name: its staged entries' holder and its marker's key. */
    String name() {
        return batch;
    }

    @Override
    public void refusedSoFar() throws IOException {
        refused(creates.await());
    }

    @Override
    public List<String> commit() throws IOException {
        if (staged.isEmpty()) {
            throw new IllegalArgumentException("the batch holds no items");
        }
        refused(creates.await());
        if (clock.monotonicNanos() - startedNanos > staleAfter.toNanos()) {
            throw new ItemStore.SpoolUnavailableException("the batch took longer than " + staleAfter + " to stage "
                    + "(half of leasehold.spool.tmp-max-age, past which housekeeping may take it for a dead "
                    + "one's); nothing was kept: send it again", null);
        }
        List<String> ids = staged.stream().map(Line::id).toList();
        BatchMarkers.write(ledger, batch, ids);
        finished = true; // past the marker the batch ends whole: the rest is roll-forward
        BatchMarkers.rollForward(ledger, batch, ids, created, arrivals, WINDOW);
        return ids;
    }

    @Override
    public void close() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        try {
            creates.await(); // none may land after the rollback has looked
        } catch (IOException e) {
            LOG.warnf("the answers to %s's creates did not all come: %s", batch, e.getMessage());
        }
        for (Line item : staged) {
            try {
                ledger.read(item.id()).filter(seen -> seen.entry().staged() && batch.equals(seen.entry().holder()))
                        .ifPresent(seen -> removeQuietly(item.id(), seen));
                if (item.payload() != null) {
                    payloads.delete(item.payload());
                }
            } catch (IOException e) {
                // Housekeeping removes it later: a staged entry of a batch with no marker, past tmp-max-age.
                LOG.warnf("could not roll back %s of %s now: %s", item.id(), batch, e.getMessage());
            }
        }
    }

    private void removeQuietly(String id, Ledger.Seen seen) {
        try {
            ledger.remove(id, seen);
        } catch (IOException e) {
            LOG.warnf("could not remove the staged %s of %s now: %s", id, batch, e.getMessage());
        }
    }

    /** A payload as it streams in, held until its line ends, refused one byte past max-bytes. */
    private final class Bounded extends OutputStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (bytes.size() + (long) len > maxBytes) {
                throw new ItemStore.PayloadTooLargeException(maxBytes);
            }
            bytes.write(b, off, len);
        }

        byte[] toByteArray() {
            return bytes.toByteArray();
        }
    }
}
