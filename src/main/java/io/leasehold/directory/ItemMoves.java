package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.PastAttempt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * What the API moves: cancel (pending → failed), retry (failed → pending), purge. Cancel and retry
 * first take the item under a claim name of their own, which only one mover can win, and then move that
 * claim the way the drain does: a shared name is never removed or replaced on the strength of a look.
 */
final class ItemMoves {

    private static final Logger LOG = Logger.getLogger(ItemMoves.class);

    private final SpoolLayout layout;
    private final PosixSpool spool;
    private final ItemQueries queries;
    /** How long a cancel keeps looking while a drain's claim of the same item is half-way. */
    private static final Duration CLAIM_RACE = Duration.ofMillis(500);
    /** ...and at most this often (a clock that does not move, as in tests, must not hold it forever). */
    private static final int MAX_LOOKS = 10_000;

    private final Clock clock;
    private volatile Consumer<String> arrivals = id -> { };

    ItemMoves(SpoolLayout layout, PosixSpool spool, ItemQueries queries, Clock clock) {
        this.layout = layout;
        this.spool = spool;
        this.queries = queries;
        this.clock = clock;
    }

    /**
     * Claims the pending item, records "cancelled" as that claim's verdict, and settles it in failed/. A
     * scheduled item is taken from its parked claim by a rename of its own, as a drain at its runAt would
     * take it (one of the two wins), and cancelled the same way.
     */
    ItemView cancel(String id) throws IOException {
        if (lookup(id).state().equals(ItemView.SCHEDULED)) {
            return cancelScheduled(id);
        }
        requireState(id, ItemState.PENDING);
        Optional<ClaimName> claim = spool.pendingClaims().claim(id, clock.now());
        // A drain claiming the same item at this very moment can be between its reservation's create and
        // its write (or its rename): look again while the item is still pending, until it is ours or gone.
        long until = clock.monotonicNanos() + CLAIM_RACE.toNanos();
        for (int look = 0; claim.isEmpty() && look < MAX_LOOKS && clock.monotonicNanos() - until < 0; look++) {
            requireState(id, ItemState.PENDING); // claimed by a drain meanwhile: 409
            Thread.yield();
            claim = spool.pendingClaims().claim(id, clock.now());
        }
        if (claim.isEmpty()) {
            requireState(id, ItemState.PENDING); // claimed by a drain between the look and the claim: 409
            throw new ItemStore.UnfitItemException(id, "pending/" + id + " is not an item that can be claimed "
                    + "(see GET /spool, 'ignored')");
        }
        ClaimName mine = claim.get();
        return settleCancelled(mine, () -> spool.handBack(mine));
    }

    /** What puts a cancel's claim back where it came from, when the cancel cannot be finished. */
    private interface Undo {
        void run() throws IOException;
    }

    private ItemView cancelScheduled(String id) throws IOException {
        Optional<ClaimName> parked = queries.claimOf(id);
        ClaimName mine = new ClaimName(id, Generation.at(1, spool.holderTag()), clock.now());
        if (parked.isEmpty() || spool.record(id, parked.get().generation()).map(AttemptRecord::kind)
                .filter(k -> k == AttemptRecord.Kind.SCHEDULED).isEmpty() || !spool.rename(parked.get(), mine)) {
            requireState(id, ItemState.PENDING); // its runAt came and a drain took it meanwhile: 409
            throw new ItemStore.WrongStateException(id, "moving", ItemState.PENDING.label());
        }
        spool.writeRecord(id, mine.generation(), spool.record(id, parked.get().generation())
                .orElse(AttemptRecord.note(0, "")).as(AttemptRecord.Kind.NOTE));
        return settleCancelled(mine, () -> {
            if (spool.rename(mine, parked.get())) {
                spool.census().parked(id, parked.get().generation(), AttemptRecord.Kind.SCHEDULED);
            }
        });
    }

    /** Records "cancelled" as the verdict of the cancel's own claim, with the history it carries, and settles it. */
    private ItemView settleCancelled(ClaimName mine, Undo undo) throws IOException {
        String id = mine.id();
        AttemptRecord own = spool.record(id, mine.generation()).orElse(AttemptRecord.note(0, ""));
        try {
            spool.writeRecord(id, mine.generation(), own.then(AttemptRecord.Kind.FAILED, "cancelled"));
        } catch (IOException | RuntimeException e) {
            // Not recorded (a full disk: 507): the item goes back, never left under a claim nobody renews.
            undo.run();
            throw e;
        }
        try {
            if (!spool.settle(mine, ItemState.FAILED)) {
                throw new IOException("the cancel's own claim " + mine + " vanished before it could be settled");
            }
        } catch (ItemStore.DuplicateItemException e) {
            // failed/<id> holds another file: the item goes back, and the cancel is refused.
            undo.run();
            throw new ItemStore.UnfitItemException(id, "failed/" + id + " holds another file, which is never replaced");
        }
        return lookup(id);
    }

    /**
     * Takes the failed item under a fresh claim (attempt 1: its attempts are counted afresh) and hands
     * that claim back to pending/. The records of the failed attempts are dropped while the retry's own
     * claim has the item, before it is back in pending/: never after, when they could be a new claim's.
     */
    ItemView retry(String id) throws IOException {
        requireState(id, ItemState.FAILED);
        // Its attempts count from 1 again: the earlier run's outputs would pass for the new run's.
        new DirectoryOutputs(layout).forget(id);
        Optional<FileFacts> failed = FileFacts.of(layout.file(SpoolFolder.FAILED, id));
        if (failed.isPresent() && !spool.halfMoves().settledAlone(id, SpoolFolder.FAILED, failed.get())) {
            throw new ItemStore.UnfitItemException(id, "failed/" + id + " has other names (see GET /spool, 'ignored')");
        }
        if (failed.isPresent() && !spool.reservations().exists(id)) {
            spool.reservations().settled().forget(); // a settled item with no reservation: first claims look again
        }
        if (failed.isPresent() && !spool.reservations().adopt(id, failed.get().ino())) {
            throw new ItemStore.UnfitItemException(id, "ids/" + id + " names another file, or is junk");
        }
        ClaimName taken = new ClaimName(id, Generation.at(1, spool.holderTag()), clock.now());
        if (!SpoolLayout.moveToUniqueName(layout.file(SpoolFolder.FAILED, id), layout.claimFile(taken))) {
            requireState(id, ItemState.FAILED); // moved meanwhile: 409 or 404
            throw new ItemStore.NoSuchItemException(id);
        }
        spool.census().moved(SpoolFolder.FAILED, SpoolFolder.CLAIMED);
        Optional<String> why = spool.records().failedReason(id);
        // The history goes on with the item: carried back to pending/ by the retry's own claim, as a hand-back's.
        List<PastAttempt> history = AttemptRecord.historyOf(spool.records().latest(id, AttemptRecord.Kind.FAILED)
                .map(AttemptRecords.Entry::record));
        if (!history.isEmpty()) {
            spool.writeRecord(id, taken.generation(), new AttemptRecord(AttemptRecord.Kind.NOTE, 0, "", history));
        }
        spool.dropEarlierRecords(taken);
        try {
            if (!spool.handBack(taken)) {
                throw new IOException("the retry's own claim " + taken + " vanished before it was handed back");
            }
        } catch (ItemStore.DuplicateItemException e) {
            // pending/<id> holds another file: the item goes back to failed/ with its reason, and the retry is refused.
            spool.writeRecord(id, taken.generation(), new AttemptRecord(AttemptRecord.Kind.FAILED, 0,
                    why.orElse("unknown (no reason was recorded)"), history));
            if (!spool.settle(taken, ItemState.FAILED)) {
                LOG.warnf("could not put %s back in failed/; its lease will run out and it runs again", taken);
            }
            throw e;
        }
        arrivals.accept(id);
        return lookup(id);
    }

    /**
     * Removes a settled item for good: its file, then its records, then its reservation, after which the
     * id is unknown and may be enqueued again. A crash in between leaves a reservation without an item,
     * which the bookkeeping sweep removes. False when there was no such file.
     */
    boolean purge(String id, ItemState settled) throws IOException {
        ItemStore.requireSettled(settled);
        Path file = layout.file(SpoolFolder.of(settled), id);
        Optional<FileFacts> facts = FileFacts.of(file);
        if (facts.isEmpty()) {
            return false;
        }
        if (!facts.get().regular() || !spool.halfMoves().settledAlone(id, SpoolFolder.of(settled), facts.get())) {
            throw new ItemStore.UnfitItemException(id, SpoolFolder.of(settled).dirName() + "/" + id + " is not a plain item "
                    + "file with one name (a link, a FIFO, a directory, or a file with a second name): left alone;"
                    + " remove it by hand");
        }
        // The outputs first: a crash in between leaves an item without them, never them for a later item of the id.
        new DirectoryOutputs(layout).forget(id);
        if (!Files.deleteIfExists(file)) {
            return false;
        }
        spool.census().removed(SpoolFolder.of(settled));
        spool.records().forget(id);
        if (!spool.reservations().exists(id)) {
            spool.reservations().settled().forget(); // a settled item had no reservation: first claims look again
        }
        spool.reservations().release(id, facts.get().ino());
        return true;
    }

    void whenArrived(Consumer<String> arrivals) {
        this.arrivals = arrivals;
    }

    private ItemView lookup(String id) throws IOException {
        return queries.lookup(id).orElseThrow(() -> new ItemStore.NoSuchItemException(id));
    }

    private void requireState(String id, ItemState needed) throws IOException {
        ItemView view = lookup(id);
        if (!view.state().equals(needed.label())) {
            throw new ItemStore.WrongStateException(id, view.state(), needed.label());
        }
    }
}
