package io.leasehold.jetstream;

import io.leasehold.core.Clock;
import io.leasehold.spool.BatchLines;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.StagedBatch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * POST /items/batch on the JetStream spool, all or nothing. Each line's payload is stored under a name of
 * its own and its id created in the ledger as {@code staged} (known, so a second enqueue is refused, but
 * invisible and unclaimable). {@link #commit()} writes the batch's marker (the commit point: from then
 * on the batch ends whole), turns every staged entry pending, then removes the marker. Closed without a
 * commit, every staged entry and payload goes. A batch left half-way by a crash is finished by
 * {@link BatchMarkers#recover}: rolled forward when its marker exists, back when it does not.
 */
final class JetStreamStagedBatch implements StagedBatch {

    private static final Logger LOG = Logger.getLogger(JetStreamStagedBatch.class);

    private final Ledger ledger;
    private final Payloads payloads;
    private final Clock clock;
    private final Supplier<String> newId;
    private final Consumer<String> arrivals;
    private final long maxBytes;
    private final String batch = "batch-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private final BatchLines lines = new BatchLines();
    /** Staged so far, in line order: id → payload name. */
    private final List<String[]> staged = new ArrayList<>();
    private Bounded open;
    private String openId;
    private boolean finished;

    JetStreamStagedBatch(Ledger ledger, Payloads payloads, Clock clock, Supplier<String> newId,
            Consumer<String> arrivals, long maxBytes) {
        this.ledger = ledger;
        this.payloads = payloads;
        this.clock = clock;
        this.newId = newId;
        this.arrivals = arrivals;
        this.maxBytes = maxBytes;
    }

    @Override
    public OutputStream payload(int line, String id) throws IOException {
        lines.opening(line, id);
        if (id != null) {
            if (ledger.read(id).isPresent()) {
                throw new ItemStore.DuplicateItemException(id); // refused before its payload is read
            }
        }
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
        String name = Payloads.freshName(named);
        payloads.put(name, new ByteArrayInputStream(payload), maxBytes);
        if (!ledger.create(named, LedgerEntry.staged(batch, clock.now(), name))) {
            payloads.delete(name);
            throw new ItemStore.DuplicateItemException(named);
        }
        staged.add(new String[] {named, name});
    }

    @Override
    public List<String> commit() throws IOException {
        if (staged.isEmpty()) {
            throw new IllegalArgumentException("the batch holds no items");
        }
        List<String> ids = staged.stream().map(s -> s[0]).toList();
        BatchMarkers.write(ledger, batch, ids);
        finished = true; // past the marker the batch ends whole: the rest is roll-forward
        BatchMarkers.rollForward(ledger, batch, ids, arrivals);
        return ids;
    }

    @Override
    public void close() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        for (String[] item : staged) {
            try {
                ledger.read(item[0]).filter(seen -> seen.entry().staged() && batch.equals(seen.entry().holder()))
                        .ifPresent(seen -> removeQuietly(item[0], seen));
                payloads.delete(item[1]);
            } catch (IOException e) {
                // Housekeeping removes it later: a staged entry of a batch with no marker, past tmp-max-age.
                LOG.warnf("could not roll back %s of %s now: %s", item[0], batch, e.getMessage());
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
