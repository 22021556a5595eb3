package io.leasehold.spool;

import io.leasehold.core.Clock;
import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.ItemId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The claim protocol on a POSIX filesystem: every state change is one rename(2). */
public final class PosixSpool implements Spool {

    /** A listing racing a rename in the same directory can miss the entry once; look a few times. */
    private static final int LOOKS = 3;

    /** The default of {@code leasehold.item.max-bytes}, for callers that do not configure one. */
    public static final long DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies;
    private final Clock clock;
    private final long maxPayloadBytes;

    public PosixSpool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock) {
        this(layout, anomalies, clock, DEFAULT_MAX_PAYLOAD_BYTES);
    }

    /** @param maxPayloadBytes {@code leasehold.item.max-bytes}: a larger payload is never read */
    public PosixSpool(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, long maxPayloadBytes) {
        this.layout = layout;
        this.anomalies = anomalies;
        this.clock = clock;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    @Override
    public List<String> pendingBatch(int max) throws IOException {
        List<String> ids = new ArrayList<>(Math.min(max, 1024));
        // Reads only as far as it needs: a huge pending/ costs one short readdir, not a full listing.
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.PENDING))) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!ItemId.isValid(name)) {
                    anomalies.report(SpoolFolder.PENDING, name, "not a valid item id", clock.now());
                    continue;
                }
                // Junk under a valid name (a directory, a symlink) never enters a batch, however much
                // of it there is, so it cannot crowd real items out; once replaced by a file it drains.
                Optional<BasicFileAttributes> attributes = attributesOf(entry);
                if (attributes.isEmpty()) {
                    continue;
                }
                if (!attributes.get().isRegularFile()) {
                    anomalies.report(SpoolFolder.PENDING, name, SpoolFiles.problem(attributes.get()), clock.now());
                    continue;
                }
                ids.add(name);
                if (ids.size() >= max) {
                    break;
                }
            }
        }
        return ids;
    }

    /** Stops reporting junk that was removed or replaced by a proper item since it was seen. */
    public void forgetFixedJunk() {
        anomalies.recheck((folder, name) -> {
            Path path = layout.file(folder, name);
            try {
                BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                return folder == SpoolFolder.CLAIMED ? ClaimName.parse(name).isEmpty() || junkProblem(path).isPresent()
                        : !ItemId.isValid(name) || !a.isRegularFile();
            } catch (IOException e) {
                return false; // gone
            }
        });
    }

    @Override
    public boolean claim(ClaimName claim) throws IOException {
        Path source = layout.file(SpoolFolder.PENDING, claim.id());
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(source, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return false;
        }
        if (!attributes.isRegularFile()) {
            anomalies.report(SpoolFolder.PENDING, claim.id(), SpoolFiles.problem(attributes), clock.now());
            return false;
        }
        if (((Number) Files.getAttribute(source, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue() > 1) {
            // An enqueue between its link and its unlink (or a hard link from elsewhere): a claim would
            // only find a payload it must not read. Looked at again on the next scan.
            return false;
        }
        anomalies.forget(SpoolFolder.PENDING, claim.id());
        return SpoolLayout.moveToUniqueName(source, layout.claimFile(claim));
    }

    @Override
    public boolean rename(ClaimName from, ClaimName to) throws IOException {
        return SpoolLayout.moveToUniqueName(layout.claimFile(from), layout.claimFile(to));
    }

    @Override
    public Optional<ClaimName> find(String id, Generation generation) throws IOException {
        String prefix = ClaimName.prefix(id, generation);
        for (int look = 0; look < LOOKS; look++) {
            try (DirectoryStream<Path> entries =
                    Files.newDirectoryStream(layout.folder(SpoolFolder.CLAIMED), prefix + "*")) {
                for (Path entry : entries) {
                    Optional<ClaimName> parsed = ClaimName.parse(entry.getFileName().toString());
                    if (parsed.isPresent() && parsed.get().generation().equals(generation)) {
                        return parsed;
                    }
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public List<ClaimName> claims() throws IOException {
        List<ClaimName> out = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.CLAIMED))) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                Optional<ClaimName> parsed = ClaimName.parse(name);
                if (parsed.isPresent()) {
                    out.add(parsed.get());
                } else {
                    anomalies.report(SpoolFolder.CLAIMED, name, "not a claim name <id>~<generation>~<reading>",
                            clock.now());
                }
            }
        }
        return out;
    }

    @Override
    public byte[] payload(ClaimName claim) throws IOException {
        try {
            return SpoolFiles.readBounded(layout.claimFile(claim), maxPayloadBytes, "the payload of " + claim.id());
        } catch (UnfitFileException e) {
            if (e.kind() == UnfitFileException.Kind.JUNK) {
                anomalies.report(SpoolFolder.CLAIMED, claim.fileName(), e.getMessage(), clock.now());
            }
            throw e;
        }
    }

    @Override
    public boolean isJunk(ClaimName claim) throws IOException {
        Optional<String> problem = junkProblem(layout.claimFile(claim));
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

    @Override
    public boolean settle(ClaimName claim, ItemState where) throws IOException {
        if (where != ItemState.DONE && where != ItemState.FAILED) {
            throw new IllegalArgumentException("settle goes to done or failed, not " + where);
        }
        return SpoolLayout.moveToSharedName(layout.claimFile(claim), layout.file(where.folder(), claim.id()));
    }

    @Override
    public boolean handBack(ClaimName claim) throws IOException {
        Path target = layout.file(SpoolFolder.PENDING, claim.id());
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("cannot hand " + claim + " back: pending/" + claim.id() + " already exists");
        }
        return SpoolLayout.moveToSharedName(layout.claimFile(claim), target);
    }

    @Override
    public void writeReason(String id, Reason reason) throws IOException {
        // Created with the process umask (not createTempFile's 0600): instances under other uids read it too.
        Path tmp = layout.file(SpoolFolder.TMP, "reason-" + id + "-" + Generation.first().nonce());
        try {
            Files.writeString(tmp, reason.generation() + " " + reason.abandoned() + "\n" + reason.text(),
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.move(tmp, layout.file(SpoolFolder.REASONS, id), StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    @Override
    public Optional<Reason> reason(String id) throws IOException {
        Path file = layout.file(SpoolFolder.REASONS, id);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        int newline = text.indexOf('\n');
        String[] header = (newline < 0 ? text : text.substring(0, newline)).split(" ");
        try {
            return Optional.of(new Reason(header[0], Integer.parseInt(header[1]),
                    newline < 0 ? "" : text.substring(newline + 1)));
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            // Written by hand or by another tool: keep the words, count nothing.
            return Optional.of(new Reason("-", 0, text));
        }
    }

    @Override
    public void deleteReason(String id) throws IOException {
        Files.deleteIfExists(layout.file(SpoolFolder.REASONS, id));
    }

    private static Optional<BasicFileAttributes> attributesOf(Path path) throws IOException {
        try {
            return Optional.of(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return Optional.empty(); // claimed by another instance since the listing
        }
    }
}
