package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.spool.UnfitFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * What in the spool's folders is not an item of its own (a symlink, a FIFO, a directory, a second name
 * elsewhere): reported once as an anomaly, never read, moved or taken over, and forgotten once it is fixed.
 */
final class JunkChecks {

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies;
    private final HalfMoves halfMoves;
    private final PendingClaims pendingClaims;
    private final Clock clock;

    JunkChecks(SpoolLayout layout, SpoolAnomalies anomalies, HalfMoves halfMoves, PendingClaims pendingClaims,
            Clock clock) {
        this.layout = layout;
        this.anomalies = anomalies;
        this.halfMoves = halfMoves;
        this.pendingClaims = pendingClaims;
        this.clock = clock;
    }

    /** Stops reporting junk that was removed or replaced by a proper item since it was seen. */
    void forgetFixed() {
        anomalies.recheck((folder, name) -> {
            Path path = layout.file(folder, name);
            try {
                BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (folder == SpoolFolder.PENDING) {
                    return !ItemId.isValid(name) || pendingClaims.wouldRefuse(name);
                }
                if (folder == SpoolFolder.IDS || folder == SpoolFolder.ATTEMPTS || folder == SpoolFolder.REASONS) {
                    return !fitBookkeeping(folder, name, a);
                }
                return folder == SpoolFolder.CLAIMED ? ClaimName.parse(name).isEmpty() || junkProblem(path).isPresent()
                        : !ItemId.isValid(name) || !a.isRegularFile();
            } catch (IOException e) {
                return false; // gone
            }
        });
    }

    /** A bookkeeping entry that is fine now: a plain file of the spool's own (a real folder of records). */
    private boolean fitBookkeeping(SpoolFolder folder, String name, BasicFileAttributes a) throws IOException {
        if (folder == SpoolFolder.ATTEMPTS && name.indexOf('/') < 0) {
            return a.isDirectory();
        }
        if (folder == SpoolFolder.IDS) {
            return ReservationReader.fit(layout.file(folder, name));
        }
        try {
            SpoolFiles.fitAttributes(layout.file(folder, name), AttemptRecords.MAX_BYTES);
            return true;
        } catch (UnfitFileException e) {
            return false;
        }
    }

    /** Whether the claim's file is junk (a symlink, a FIFO, a second name ...), reported when it is; false when fit or gone. */
    boolean claimIsJunk(ClaimName claim) throws IOException {
        Path file = layout.claimFile(claim);
        Optional<String> problem = junkProblem(file);
        if (problem.isPresent() && (halfMoves.leftHalfDone(claim) || junkProblem(file).isEmpty())) {
            // A second name from a move that stopped half-way, which the takeover finishes; or a move by link
            // and unlink that was between the two when the first look counted the names, and is over now.
            return false;
        }
        problem.ifPresent(p -> anomalies.report(SpoolFolder.CLAIMED, claim.fileName(), p, clock.now()));
        return problem.isPresent();
    }

    /** What makes the file junk (never its size), or empty when it is fit or gone. */
    private static Optional<String> junkProblem(Path file) throws IOException {
        try {
            SpoolFiles.fitAttributes(file, Long.MAX_VALUE);
            return Optional.empty();
        } catch (UnfitFileException e) {
            return Optional.of(e.getMessage());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }
}
