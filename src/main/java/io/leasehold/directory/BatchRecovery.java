package io.leasehold.directory;

import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.core.SeenUnchanged;
import io.leasehold.spool.Staleness;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Finishes batches their makers left in tmp/ ({@link BatchFolder}), at start and in the periodic
 * housekeeping: a committed batch (its marker is there) is rolled forward — the links it did not make
 * are made, pending/ is synced, the staging removed — and an uncommitted one rolled back — its
 * reservations released, its files removed. A batch is only touched once its maker is gone: proven dead
 * ({@link MakerIdentity}), or nothing in its folder written since the cutoff (tmp-max-age, the rule for a
 * single upload's leftovers). Both are idempotent, so a recovery that crashes is simply done again.
 */
final class BatchRecovery {

    private static final Logger LOG = Logger.getLogger(BatchRecovery.class);

    private final SpoolLayout layout;
    private final Reservations reservations;
    private final GroupCommit pendingSync;
    private final BatchMakers live;
    private final SeenUnchanged quiet;

    BatchRecovery(SpoolLayout layout, Reservations reservations, GroupCommit pendingSync, BatchMakers live,
            Clock clock) {
        this.quiet = new SeenUnchanged(clock);
        this.layout = layout;
        this.reservations = reservations;
        this.pendingSync = pendingSync;
        this.live = live;
    }

    /** Rolls every abandoned batch forward or back; returns how many. */
    int recover(Staleness staleness) throws IOException {
        int finished = 0;
        Set<String> looked = new HashSet<>();
        try (DirectoryStream<Path> batches = SpoolLayout.startingWith(layout.folder(SpoolFolder.TMP), BatchFolder.PREFIX)) {
            for (Path dir : batches) {
                String name = dir.getFileName().toString();
                looked.add(name);
                Optional<FileFacts> facts = FileFacts.of(dir);
                if (live.making(name) || facts.isEmpty() || !facts.get().directory()) {
                    continue;
                }
                BatchFolder folder = BatchFolder.at(dir);
                boolean dead = live.givenUp(name) || BatchFolder.maker(name).filter(MakerIdentity::provablyDead).isPresent();
                if ((dead || untouched(name, folder, facts.get(), staleness)) && finish(folder)) {
                    live.finished(name);
                    finished++;
                }
            }
        }
        quiet.keepOnly(looked);
        return finished;
    }

    private boolean finish(BatchFolder folder) throws IOException {
        BatchFolder.Marker marker = folder.marker();
        if (marker.problem() != null) {
            LOG.warnf("left %s alone: its %s %s; a person must decide whether it is committed", folder.dir,
                    BatchFolder.MARKER, marker.problem());
            return false;
        }
        if (!marker.committed()) {
            rollBack(folder, reservations, true);
            LOG.infof("rolled back %s: its maker stopped before the batch was committed", folder.dir);
            return true;
        }
        boolean whole = true;
        for (String id : marker.ids()) {
            whole &= linked(folder, id);
        }
        pendingSync.awaitSync();
        if (!whole) {
            return false;
        }
        for (String id : marker.ids()) {
            Files.deleteIfExists(folder.staged(id));
        }
        removeRest(folder);
        LOG.infof("rolled forward %s: its %d items are in pending/", folder.dir, marker.ids().size());
        return true;
    }

    /**
     * Makes the link of one committed item if it was never made. A staged file with a second name was linked
     * (an item keeps its inode through every move); with one name it was not — unless its item was purged
     * since, which removes the staged name first ({@link HalfMoves#settledAlone}), so no item comes back.
     */
    private boolean linked(BatchFolder folder, String id) throws IOException {
        Path staged = folder.staged(id);
        Optional<FileFacts> facts = FileFacts.of(staged);
        if (facts.isEmpty() || facts.get().links() > 1) {
            return true;
        }
        if (!facts.get().regular() || !reservations.adopt(id, facts.get().ino())) {
            LOG.warnf("left %s alone: id '%s' is another file's now", staged, id);
            return false;
        }
        if (SharedNames.link(staged, layout.file(SpoolFolder.PENDING, id)) == SharedNames.Link.TAKEN) {
            LOG.warnf("could not link %s: pending/%s holds another file, dropped in under a reserved id", staged, id);
            return false;
        }
        return true;
    }

    /** Removes a batch that was never committed: the reservations that name its files, then the files. */
    /** {@code deadMaker}: the batch's maker is gone, so an empty reservation of its ids is its own leftover. */
    static void rollBack(BatchFolder folder, Reservations reservations, boolean deadMaker) throws IOException {
        for (String name : folder.entries()) {
            Optional<FileFacts> facts = FileFacts.of(folder.dir.resolve(name));
            if (ItemId.isValid(name) && facts.isPresent() && facts.get().regular() && facts.get().links() == 1) {
                if (deadMaker) {
                    reservations.releaseOfDeadMaker(name, facts.get().ino());
                } else {
                    reservations.release(name, facts.get().ino());
                }
            }
        }
        removeRest(folder);
    }

    private static void removeRest(BatchFolder folder) throws IOException {
        for (String name : folder.entries()) {
            if (!name.equals(BatchFolder.MARKER)) {
                Files.deleteIfExists(folder.dir.resolve(name));
            }
        }
        folder.removeEmpty();
    }

    /**
     * Nothing in the folder written since the cutoff, and the folder seen unchanged here (its entries and
     * their times) for the quiet span: a maker still staging it is never taken for gone ({@link Staleness}).
     */
    private boolean untouched(String name, BatchFolder folder, FileFacts dir, Staleness staleness) throws IOException {
        if (!dir.modified().isBefore(staleness.cutoff())) {
            return false;
        }
        List<Object> look = new ArrayList<>(List.of(dir.modified()));
        for (String entry : folder.entries()) {
            Optional<FileFacts> facts = FileFacts.of(folder.dir.resolve(entry));
            if (facts.isPresent() && !facts.get().modified().isBefore(staleness.cutoff())) {
                return false;
            }
            look.add(entry + " " + facts.map(f -> f.size() + " " + f.modified()).orElse("gone"));
        }
        return quiet.quietFor(name, look, staleness.quiet());
    }
}
