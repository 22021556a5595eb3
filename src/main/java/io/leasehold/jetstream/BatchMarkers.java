package io.leasehold.jetstream;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.core.SeenUnchanged;
import io.leasehold.spool.Staleness;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The commit points of JetStream batches: one ledger key per committed batch, {@code =<batch>}, listing
 * its ids (a key no item id maps to: '=' is never in an id). Written before any of its items becomes
 * pending, removed once all are; housekeeping finishes what a crash left in between.
 */
final class BatchMarkers {

    /** A committed batch's marker, as people read it with {@code nats kv get}: its ids, in line order. */
    record Marker(List<String> ids) {
    }

    private static final Logger LOG = Logger.getLogger(BatchMarkers.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private BatchMarkers() {
    }

    static String key(String batch) {
        return "=" + batch;
    }

    static void write(Ledger ledger, String batch, List<String> ids) throws IOException {
        if (!ledger.createRaw(key(batch), JSON.writeValueAsBytes(new Marker(ids)))) {
            throw new IOException("the commit marker of " + batch + " exists already");
        }
    }

    /**
     * The commit's roll-forward: every item from the entry its create answered, {@code window} moves in
     * flight at most; one that lost its move (housekeeping's recovery turned it meanwhile) is looked at
     * again, one at a time. An item found gone was taken back by housekeeping before the marker was
     * written (the batch outlived {@code spool.tmp-max-age} by its clock): the batch is not whole, and
     * that is an error, never a 201.
     */
    static void rollForward(Ledger ledger, String batch, List<String> ids, List<Ledger.Seen> staged,
            Consumer<String> arrivals, int window) throws IOException {
        OverlappedWrites moves = new OverlappedWrites(ledger);
        List<String> again = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            moves.send(new OverlappedWrites.Write(ids.get(i), staged.get(i), staged.get(i).entry().committed()));
            if (moves.inFlight() >= window || i == ids.size() - 1) {
                for (OverlappedWrites.Outcome moved : moves.await()) {
                    if (moved.landed().isPresent()) {
                        arrivals.accept(moved.write().id());
                    } else {
                        again.add(moved.write().id());
                    }
                }
            }
        }
        List<String> gone = new ArrayList<>();
        for (String id : again) {
            Optional<Ledger.Seen> seen = ledger.read(id); // one read answers both: gone, or where to move from
            if (seen.isEmpty()) {
                gone.add(id);
            } else {
                rollOne(ledger, batch, id, seen, arrivals);
            }
        }
        ledger.removeRaw(key(batch));
        if (!gone.isEmpty()) {
            throw new IOException(gone.size() + " item(s) of " + batch + " were taken back by housekeeping before "
                    + "its commit, the others are pending: " + gone + " (instances' clocks further apart than half "
                    + "of leasehold.spool.tmp-max-age?)");
        }
    }

    /** Turns every still staged item of the batch pending, tells of each, then removes the marker. */
    static void rollForward(Ledger ledger, String batch, List<String> ids, Consumer<String> arrivals)
            throws IOException {
        for (String id : ids) {
            rollOne(ledger, batch, id, ledger.read(id), arrivals);
        }
        ledger.removeRaw(key(batch));
    }

    /** Turns one item pending if it is still staged by {@code batch}, starting from {@code seen}; a few tries. */
    private static void rollOne(Ledger ledger, String batch, String id, Optional<Ledger.Seen> seen,
            Consumer<String> arrivals) throws IOException {
        for (int look = 0; look < 3; look++) {
            if (look > 0) {
                seen = ledger.read(id);
            }
            if (seen.isEmpty() || !seen.get().entry().staged() || !batch.equals(seen.get().entry().holder())) {
                return; // turned already (by this commit's earlier try, or by housekeeping)
            }
            if (ledger.replace(id, seen.get(), seen.get().entry().committed())) {
                arrivals.accept(id);
                return;
            }
        }
    }

    /**
     * Finishes the batches a crash left, from a listing of staged items (each is read again before it is
     * moved): every staged item whose batch has a marker is rolled forward;
     * one whose batch has none, staged before {@code cutoff}, is removed with its payload. Returns how many
     * items it finished.
     */
    static int recover(Ledger ledger, Payloads payloads, List<MirrorCopy.Glimpse> staged, Staleness staleness,
            SeenUnchanged quiet, Consumer<String> arrivals) throws IOException {
        Map<String, List<String>> byBatch = new HashMap<>();
        for (MirrorCopy.Glimpse item : staged) {
            if (item.entry().staged()) {
                byBatch.computeIfAbsent(item.entry().holder(), b -> new ArrayList<>()).add(item.id());
            }
        }
        int finished = 0;
        for (Map.Entry<String, List<String>> batch : byBatch.entrySet()) {
            Optional<byte[]> marker = ledger.readRaw(key(batch.getKey()));
            if (marker.isPresent()) {
                List<String> ids = JSON.readValue(marker.get(), Marker.class).ids();
                rollForward(ledger, batch.getKey(), ids, arrivals);
                finished += batch.getValue().size();
                continue;
            }
            for (String id : batch.getValue()) {
                Optional<Ledger.Seen> seen = ledger.read(id);
                // Old by this instance's wall clock, and unchanged here for the quiet span: no live upload's.
                if (seen.isPresent() && seen.get().entry().staged()
                        && seen.get().entry().enqueuedAt().isBefore(staleness.cutoff())
                        && quiet.quietFor(id, seen.get().revision(), staleness.quiet())
                        && ledger.remove(id, seen.get())) {
                    payloads.delete(seen.get().entry().payload());
                    finished++;
                }
            }
        }
        quiet.keepOnly(staged.stream().map(MirrorCopy.Glimpse::id).collect(java.util.stream.Collectors.toSet()));
        if (finished > 0) {
            LOG.infof("finished %d items of batches a crash left half-way", finished);
        }
        return finished;
    }
}
