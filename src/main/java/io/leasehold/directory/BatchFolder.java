package io.leasehold.directory;

import io.leasehold.spool.UnfitFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where one batch is staged: {@code tmp/batch~<maker>~<random>/} ({@link MakerIdentity}). In it,
 * {@code <id>} for each staged payload (hard-linked into pending/ once the batch is committed),
 * {@code ~line-<n>} for a payload whose line named no id yet, and the commit marker: {@code commit},
 * written as {@code commit.tmp}, fsynced and renamed, so it is whole or absent. It lists the batch's ids,
 * one a line, between a header and an end line. The marker is the batch's commit point: with it the
 * batch is rolled forward, without it rolled back ({@link BatchRecovery}).
 */
final class BatchFolder {

    static final String PREFIX = "batch~";
    static final String MARKER = "commit";
    private static final String MARKER_TEMP = "commit.tmp";
    private static final String HEADER = "leasehold-batch 1";
    private static final String END = "end";
    /** An id is at most 128 characters: the marker of the largest batch allowed stays far below this. */
    private static final long MARKER_MAX_BYTES = 64L * 1024 * 1024;

    /** What the marker says. */
    record Marker(boolean committed, List<String> ids, String problem) {
        static final Marker ABSENT = new Marker(false, List.of(), null);
    }

    final Path dir;
    final String name;

    private BatchFolder(Path dir) {
        this.dir = dir;
        this.name = dir.getFileName().toString();
    }

    static BatchFolder create(SpoolLayout layout) throws IOException {
        String name = PREFIX + MakerIdentity.current() + "~"
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
        return new BatchFolder(Files.createDirectory(layout.file(SpoolFolder.TMP, name)));
    }

    static BatchFolder at(Path dir) {
        return new BatchFolder(dir);
    }

    /** The maker's identity in a batch folder's name, if it is one. */
    static Optional<String> maker(String name) {
        if (!name.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int end = name.indexOf('~', PREFIX.length());
        return end < 0 ? Optional.empty() : Optional.of(name.substring(PREFIX.length(), end));
    }

    Path staged(String id) {
        return dir.resolve(id);
    }

    Path unnamed(int line) {
        return dir.resolve("~line-" + line);
    }

    /** Writes the marker durably: after this returns, a crash leaves a batch that is rolled forward. */
    void commit(List<String> ids, DirectorySync sync) throws IOException {
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (String id : ids) {
            text.append(id).append('\n');
        }
        text.append(END).append('\n');
        Path temp = dir.resolve(MARKER_TEMP);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.US_ASCII));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(temp, dir.resolve(MARKER), StandardCopyOption.ATOMIC_MOVE);
        sync.force(dir);
    }

    Marker marker() throws IOException {
        String text;
        try {
            text = new String(SpoolFiles.readBounded(dir.resolve(MARKER), MARKER_MAX_BYTES), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return Marker.ABSENT;
        } catch (UnfitFileException e) {
            return new Marker(false, List.of(), e.getMessage());
        }
        List<String> lines = List.of(text.split("\n"));
        if (lines.size() < 2 || !lines.get(0).equals(HEADER) || !lines.get(lines.size() - 1).equals(END)
                || !text.endsWith("\n")) {
            return new Marker(false, List.of(), "is not a batch's commit marker");
        }
        List<String> ids = new ArrayList<>(lines.subList(1, lines.size() - 1));
        for (String id : ids) {
            if (!io.leasehold.core.ItemId.isValid(id)) {
                return new Marker(false, List.of(), "names '" + io.leasehold.core.ItemId.printable(id)
                        + "', not an item id");
            }
        }
        return new Marker(true, ids, null);
    }

    /** Every entry's name, the marker's included. */
    List<String> entries() throws IOException {
        List<String> names = new ArrayList<>();
        try (var stream = Files.newDirectoryStream(dir)) {
            stream.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }

    /** Removes the marker's temporary, the marker and the folder, in that order (after every staged name). */
    void removeEmpty() throws IOException {
        Files.deleteIfExists(dir.resolve(MARKER_TEMP));
        Files.deleteIfExists(dir.resolve(MARKER));
        Files.deleteIfExists(dir);
    }
}
