package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Moves left half-done: a file with a second name because its mover linked it into a shared name and
 * stopped before it unlinked its own. Which name wins is fixed per pair, told apart by inode, and the
 * loser is always a name unique to its mover (a claim, an upload), so removing it never loses an item:
 *
 * <ul>
 *   <li>claim + {@code done/} or {@code failed/} (a settlement): the settled name wins;</li>
 *   <li>claim + {@code pending/} (a hand-back, or a retry's): pending wins;</li>
 *   <li>upload in {@code tmp/}, or a batch's staged name in {@code tmp/batch~…/}, + {@code pending/} (an
 *       enqueue): pending wins, once the upload has not been written for {@link #UPLOAD_GRACE}; before that
 *       it is an enqueue in flight, whose writer unlinks the upload itself once pending/ is synced and then
 *       nudges its drain;</li>
 *   <li>a batch's staged name + a settled name (a batch that stopped before removing its staging): the
 *       settled name wins.</li>
 * </ul>
 * Any other set of names (two shared names, a name outside the spool) is junk: left alone, reported.
 */
final class HalfMoves {

    static final String UPLOAD_PREFIX = "enqueue~";
    static final Duration UPLOAD_GRACE = Duration.ofSeconds(10);
    private static final Logger LOG = Logger.getLogger(HalfMoves.class);

    /** One name of the file. */
    record Name(SpoolFolder folder, String fileName) {
        @Override
        public String toString() {
            return folder.dirName() + "/" + fileName;
        }
    }

    /** What a pending file with more than one name is. */
    enum Verdict { CLAIMABLE, IN_FLIGHT, JUNK }

    /** @param handedBackAt the attempt of the claim it was handed back by (0 when it was not) */
    record Look(Verdict verdict, String problem, int handedBackAt) {
        static Look of(Verdict verdict, String problem) {
            return new Look(verdict, problem, 0);
        }
    }

    private final SpoolLayout layout;
    private final Clock clock;

    HalfMoves(SpoolLayout layout, Clock clock) {
        this.layout = layout;
        this.clock = clock;
    }

    /**
     * Looks at {@code pending/<id>}, which has more than one name, and with {@code finish} removes the
     * losing name of a pair (the caller looks again, then claims).
     */
    Look pending(String id, FileFacts facts, boolean finish) throws IOException {
        Name self = new Name(SpoolFolder.PENDING, id);
        List<Name> others = otherNames(id, self, facts);
        if (!unchanged(self, facts)) {
            return Look.of(Verdict.CLAIMABLE, null); // it moved while we looked: the caller looks again
        }
        if (others.size() + 1 < facts.links()) {
            return Look.of(Verdict.JUNK, "has " + facts.links() + " names, some outside the spool (a hard link to "
                    + "a file elsewhere is never read)");
        }
        if (others.size() != 1) {
            return Look.of(Verdict.JUNK, "is the same file as " + others);
        }
        Name other = others.get(0);
        if (other.folder() == SpoolFolder.CLAIMED) {
            if (finish) {
                remove(other, "a hand-back stopped after its link: pending/" + id + " wins");
            }
            return new Look(Verdict.CLAIMABLE, null, ClaimName.parse(other.fileName()).orElseThrow().generation()
                    .attempt());
        }
        if (other.folder() == SpoolFolder.TMP) {
            if (!facts.modified().plus(UPLOAD_GRACE).isBefore(clock.now())) {
                return Look.of(Verdict.IN_FLIGHT, null);
            }
            if (finish) {
                remove(other, "an enqueue stopped after its link: pending/" + id + " wins");
            }
            return Look.of(Verdict.CLAIMABLE, null);
        }
        return Look.of(Verdict.JUNK, "is the same file as " + other + ": remove one of the two names");
    }

    /** The claim's file has a settled or pending name too: a move stopped half-way, not junk. */
    boolean leftHalfDone(ClaimName claim) throws IOException {
        Optional<FileFacts> facts = FileFacts.of(layout.claimFile(claim));
        return facts.isPresent() && facts.get().links() > 1
                && !otherNames(claim.id(), new Name(SpoolFolder.CLAIMED, claim.fileName()), facts.get()).isEmpty();
    }

    /**
     * After a takeover renamed a claim: when the file also has a settled or a pending name (a move that
     * stopped half-way), that name wins and the claim steps back. True when the taker works on it.
     */
    boolean keepTaken(ClaimName taken) throws IOException {
        Name self = new Name(SpoolFolder.CLAIMED, taken.fileName());
        Optional<FileFacts> facts = FileFacts.of(layout.claimFile(taken));
        if (facts.isEmpty()) {
            return false;
        }
        List<Name> others = facts.get().links() == 1 ? List.of() : otherNames(taken.id(), self, facts.get());
        if (others.isEmpty()) {
            return true; // names outside the spool only: the payload read refuses it
        }
        remove(self, "it is also " + others + ", where a move left it; the claim steps back");
        return false;
    }

    /**
     * Before a settled file is moved on or purged: removes the claim names a settlement left when it
     * stopped after its link. False when the file has other names still (junk).
     */
    boolean settledAlone(String id, SpoolFolder folder, FileFacts facts) throws IOException {
        if (facts.links() == 1) {
            return true;
        }
        Name self = new Name(folder, id);
        List<Name> others = otherNames(id, self, facts);
        boolean onlyClaims = others.size() + 1 == facts.links() && unchanged(self, facts);
        for (Name other : others) {
            onlyClaims &= other.folder() == SpoolFolder.CLAIMED || staged(other);
        }
        if (onlyClaims) {
            for (Name other : others) {
                remove(other, (staged(other) ? "a batch stopped before it removed its staging: "
                        : "a settlement stopped after its link: ") + folder.dirName() + "/" + id + " wins");
            }
        }
        return onlyClaims;
    }

    /** A batch's staged name: left by a batch whose maker stopped after its links, before removing its staging. */
    private static boolean staged(Name name) {
        return name.folder() == SpoolFolder.TMP && name.fileName().startsWith(BatchFolder.PREFIX);
    }

    /**
     * The winning name is still this very file with as many names, looked at after the other names were:
     * a loser is only ever removed while the winner still holds the file. Without this, a file renamed
     * from the winning name into a claim between the looks would look like the losing half of a pair.
     */
    private boolean unchanged(Name self, FileFacts before) throws IOException {
        Optional<FileFacts> now = FileFacts.of(layout.file(self.folder(), self.fileName()));
        return now.isPresent() && now.get().sameFileAs(before) && now.get().links() == before.links();
    }

    /** The other names this file has under {@code id} in the spool's folders. */
    List<Name> otherNames(String id, Name self, FileFacts facts) throws IOException {
        List<Name> found = new ArrayList<>();
        for (SpoolFolder folder : new SpoolFolder[] {SpoolFolder.PENDING, SpoolFolder.DONE, SpoolFolder.FAILED}) {
            addIfSame(found, new Name(folder, id), self, facts);
        }
        for (String name : namesLike(SpoolFolder.CLAIMED, id + ClaimName.SEPARATOR)) {
            if (ClaimName.parse(name).filter(c -> c.id().equals(id)).isPresent()) {
                addIfSame(found, new Name(SpoolFolder.CLAIMED, name), self, facts);
            }
        }
        for (String name : namesLike(SpoolFolder.TMP, UPLOAD_PREFIX + id + ClaimName.SEPARATOR)) {
            addIfSame(found, new Name(SpoolFolder.TMP, name), self, facts);
        }
        for (String batch : namesLike(SpoolFolder.TMP, BatchFolder.PREFIX)) {
            // A batch's staged name (BatchFolder): it loses to pending/ like an upload's.
            addIfSame(found, new Name(SpoolFolder.TMP, batch + "/" + id), self, facts);
        }
        return found;
    }

    private void addIfSame(List<Name> found, Name name, Name self, FileFacts facts) throws IOException {
        if (!name.equals(self)) {
            Optional<FileFacts> other = FileFacts.of(layout.file(name.folder(), name.fileName()));
            if (other.isPresent() && other.get().sameFileAs(facts)) {
                found.add(name);
            }
        }
    }

    private List<String> namesLike(SpoolFolder folder, String prefix) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = SpoolLayout.startingWith(layout.folder(folder), prefix)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }

    private void remove(Name name, String why) throws IOException {
        if (Files.deleteIfExists(layout.file(name.folder(), name.fileName()))) {
            LOG.infof("removed %s: %s", name, why);
        }
    }
}
