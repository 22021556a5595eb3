package io.leasehold.spool;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import java.io.IOException;
import java.time.Duration;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** Claims the pending item, records "cancelled" as that claim's verdict, and settles it in failed/. */
    ItemView cancel(String id) throws IOException {
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
        int abandoned = spool.record(id, mine.generation()).map(AttemptRecord::abandoned).orElse(0);
        try {
            spool.writeRecord(id, mine.generation(), new AttemptRecord(AttemptRecord.Kind.FAILED, abandoned, "cancelled"));
        } catch (IOException | RuntimeException e) {
            // Not recorded (a full disk: 507): the item goes back to pending/, never left under a claim nobody renews.
            spool.handBack(mine);
            throw e;
        }
        try {
            if (!spool.settle(mine, ItemState.FAILED)) {
                throw new IOException("the cancel's own claim " + mine + " vanished before it could be settled");
            }
        } catch (ItemStore.DuplicateItemException e) {
            // failed/<id> holds another file: the item goes back to pending/, and the cancel is refused.
            spool.handBack(mine);
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
        Optional<FileFacts> failed = FileFacts.of(layout.file(SpoolFolder.FAILED, id));
        if (failed.isPresent() && !spool.halfMoves().settledAlone(id, SpoolFolder.FAILED, failed.get())) {
            throw new ItemStore.UnfitItemException(id, "failed/" + id + " has other names (see GET /spool, 'ignored')");
        }
        if (failed.isPresent() && !spool.reservations().adopt(id, failed.get().ino())) {
            throw new ItemStore.UnfitItemException(id, "ids/" + id + " names another file, or is junk");
        }
        ClaimName taken = new ClaimName(id, Generation.first(), clock.now());
        if (!SpoolLayout.moveToUniqueName(layout.file(SpoolFolder.FAILED, id), layout.claimFile(taken))) {
            requireState(id, ItemState.FAILED); // moved meanwhile: 409 or 404
            throw new ItemStore.NoSuchItemException(id);
        }
        spool.census().moved(SpoolFolder.FAILED, SpoolFolder.CLAIMED);
        Optional<String> why = spool.records().failedReason(id);
        spool.dropEarlierRecords(taken);
        try {
            if (!spool.handBack(taken)) {
                throw new IOException("the retry's own claim " + taken + " vanished before it was handed back");
            }
        } catch (ItemStore.DuplicateItemException e) {
            // pending/<id> holds another file: the item goes back to failed/ with its reason, and the retry is refused.
            spool.writeRecord(id, taken.generation(), new AttemptRecord(AttemptRecord.Kind.FAILED, 0,
                    why.orElse("unknown (no reason was recorded)")));
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
        Path file = layout.file(settled.folder(), id);
        Optional<FileFacts> facts = FileFacts.of(file);
        if (facts.isEmpty()) {
            return false;
        }
        if (!facts.get().regular() || !spool.halfMoves().settledAlone(id, settled.folder(), facts.get())) {
            throw new ItemStore.UnfitItemException(id, settled.folder().dirName() + "/" + id + " is not a plain item "
                    + "file with one name");
        }
        if (!Files.deleteIfExists(file)) {
            return false;
        }
        spool.census().removed(settled.folder());
        spool.records().forget(id);
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
