package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.directory.linux.LinuxCalls;
import io.leasehold.spool.ItemStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * A claim's move out of claimed/, into done/, failed/ or back to pending/, never replacing a file there: by one
 * {@code renameat2(RENAME_NOREPLACE)} where it can be had ({@link LinuxCalls}); else the shared name is linked
 * first (a link never replaces a file), then the claim's own name unlinked, so a crash in between leaves a
 * second name that {@link HalfMoves} finishes, never a lost item.
 */
final class MovesOut {

    private static final Logger LOG = Logger.getLogger(MovesOut.class);
    /** A renewal can rename the claim between the link and the unlink; look a few times. */
    private static final int LOOKS = 3;

    /** The current name of a claim of this generation, whatever its reading. */
    @FunctionalInterface
    interface ClaimFinder {
        Optional<ClaimName> find(String id, Generation generation) throws IOException;
    }

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies;
    private final HalfMoves halfMoves;
    private final SpoolCensus census;
    private final Clock clock;
    private final ClaimFinder claims;
    /** Empty when not to be had, or once the spool's filesystem refused the rename's flag (NFS). */
    private final AtomicReference<Optional<LinuxCalls>> calls;
    private final AtomicBoolean unexpected = new AtomicBoolean();

    MovesOut(SpoolLayout layout, SpoolAnomalies anomalies, HalfMoves halfMoves, SpoolCensus census, Clock clock,
            ClaimFinder claims, Optional<LinuxCalls> calls) {
        this.calls = new AtomicReference<>(calls);
        this.layout = layout;
        this.anomalies = anomalies;
        this.halfMoves = halfMoves;
        this.census = census;
        this.clock = clock;
        this.claims = claims;
    }

    boolean byRename() {
        return calls.get().isPresent();
    }

    /** claimed/{claim} → {to}/{id}: one renameat2 that never replaces, or a link (never replaces), then the claim's unlink. */
    boolean move(ClaimName claim, SpoolFolder to) throws IOException {
        Path source = layout.claimFile(claim);
        Optional<FileFacts> facts = FileFacts.of(source);
        if (facts.isEmpty()) {
            return false;
        }
        if (facts.get().links() > 1 && !halfMoves.keepTaken(claim)) {
            return false; // settled or back in pending/ already, by a move that stopped half-way
        }
        if (to != SpoolFolder.PENDING) {
            stampSettled(source, facts.get());
        }
        Path target = layout.file(to, claim.id());
        // Only a plain file is renamed: anything else goes the link's way, which refuses a directory.
        Optional<SharedNames.Link> renamed = facts.get().regular() ? renamed(source, target) : Optional.empty();
        SharedNames.Link outcome = renamed.isPresent() ? renamed.get() : SharedNames.link(source, target);
        switch (outcome) {
            case SOURCE_GONE:
                return false;
            case TAKEN:
                anomalies.report(to, claim.id(), "holds another file than the item known as " + claim.id()
                        + ": never replaced", clock.now());
                throw new ItemStore.DuplicateItemException(claim.id(), to.dirName() + "/" + claim.id()
                        + " holds another file; " + claim + " stays where it is");
            default:
                if (renamed.isEmpty()) {
                    unlinkOwnName(claim, facts.get().ino());
                }
                census.unparked(claim.id(), claim.generation());
                census.moved(SpoolFolder.CLAIMED, to, facts.get().modified());
                return true;
        }
    }

    /**
     * The move by one renameat2(RENAME_NOREPLACE): its outcome, or empty to move by link and unlink (not to
     * be had, the filesystem refused the flag, a name taken, which the link looks into, or an error the JDK's
     * calls will name).
     */
    private Optional<SharedNames.Link> renamed(Path source, Path target) throws IOException {
        Optional<LinuxCalls> linux = calls.get();
        if (linux.isEmpty()) {
            return Optional.empty();
        }
        int errno = linux.get().renameNoReplace(source, target);
        switch (errno) {
            case 0:
                return Optional.of(SharedNames.Link.LINKED);
            case LinuxCalls.ENOENT:
                return Optional.of(SharedNames.Link.SOURCE_GONE);
            case LinuxCalls.EEXIST: // another file, or this very one (a move by link left half-done): the link tells
                return Optional.empty();
            case LinuxCalls.EINVAL, LinuxCalls.ENOTSUP, LinuxCalls.ENOSYS:
                if (!calls.compareAndSet(linux, Optional.empty())) {
                    return Optional.empty(); // another thread turned them off, and said so
                }
                LOG.infof("the filesystem of %s has no rename that never replaces (renameat2 RENAME_NOREPLACE:"
                        + " errno %d): items are settled by link and unlink from now on", layout.root(), errno);
                return Optional.empty();
            default:
                if (!unexpected.getAndSet(true)) {
                    LOG.infof("renameat2 of %s answered errno %d: this move and others like it go by link and unlink",
                            source.getFileName(), errno);
                }
                return Optional.empty();
        }
    }

    /**
     * A settled file's modification time says when it was settled, on this instance's clock: what retention
     * ({@code spool.done-max-age}, {@code DELETE /items?olderThan=}) and the oldest-first listings of done/ and
     * failed/ count from. Set on the claim's own name before the link, so a crash after the link leaves it set;
     * best effort (the link decides the move, and a name gone meanwhile is its business).
     */
    private void stampSettled(Path claimFile, FileFacts facts) {
        if (!facts.regular()) {
            return;
        }
        Optional<LinuxCalls> linux = calls.get();
        if (linux.isPresent() && linux.get().setTimesNoFollow(claimFile, clock.now()) == 0) {
            return; // one call where the JDK makes three or four (a look on Java 17, an open, the times, a close)
        }
        try {
            // The access time too: given both, the JDK need not read the file's times first (one stat(2) less).
            FileTime now = FileTime.from(clock.now());
            Files.getFileAttributeView(claimFile, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(now, now, null);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debugf("could not date the settlement of %s: %s", claimFile.getFileName(), e.getMessage());
        }
    }

    /** The claim's name, or the one its renewal renamed it to between the link and now. */
    private void unlinkOwnName(ClaimName claim, long ino) throws IOException {
        ClaimName name = claim;
        for (int look = 0; look < LOOKS; look++) {
            if (SpoolFiles.unlink(layout.claimFile(name))) {
                return;
            }
            Optional<ClaimName> found = claims.find(claim.id(), claim.generation());
            Optional<FileFacts> facts = found.isEmpty() ? Optional.empty()
                    : FileFacts.of(layout.claimFile(found.get()));
            if (facts.isEmpty() || facts.get().ino() != ino) {
                return; // gone: the pending name won a hand-back pair, or a taker stepped back
            }
            name = found.get();
        }
    }
}
