package io.leasehold.directory;

import io.leasehold.core.Clock;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code reasons/<id>}: what spools kept before per-claim records, {@code <generation> <abandoned>} then the
 * text. No build since writes there, so once the folder is seen empty (or absent) it stays so and no item's
 * old reason is looked for again: two stat(2) calls saved on every item the drain works. Until then, each
 * item's is looked for, and the folder looked at again at most once a minute (housekeeping empties it).
 */
final class LegacyReasons {

    static final long RELOOK_NANOS = 60_000_000_000L;

    /** What {@code reasons/<id>} says. */
    record Legacy(String generation, int abandoned, String text) {
    }

    /** Reads a spool file within the records' bound; empty when it is gone or junk (reported). */
    @FunctionalInterface
    interface Reader {
        Optional<String> read(SpoolFolder folder, String name, Path file) throws IOException;
    }

    private final SpoolLayout layout;
    private final Clock clock;
    private final Reader reader;
    private volatile boolean gone;
    private volatile long lookedAt;
    private volatile boolean looked;

    LegacyReasons(SpoolLayout layout, Clock clock, Reader reader) {
        this.layout = layout;
        this.clock = clock;
        this.reader = reader;
    }

    /** False when the item surely has no old reason; true when it may (a symlink to nothing counts as one). */
    boolean mayExist(String id) {
        return !folderGone() && FileFacts.mayExist(layout.file(SpoolFolder.REASONS, id));
    }

    Optional<Legacy> of(String id) throws IOException {
        if (!mayExist(id)) {
            return Optional.empty(); // the usual case: only spools older than per-claim records have one
        }
        Optional<String> content = reader.read(SpoolFolder.REASONS, id, layout.file(SpoolFolder.REASONS, id));
        if (content.isEmpty()) {
            return Optional.empty();
        }
        String text = content.get();
        int newline = text.indexOf('\n');
        String[] header = (newline < 0 ? text : text.substring(0, newline)).split(" ");
        try {
            return Optional.of(new Legacy(header[0], Integer.parseInt(header[1]),
                    newline < 0 ? "" : text.substring(newline + 1)));
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return Optional.of(new Legacy("-", 0, text)); // written by hand: keep the words, count nothing
        }
    }

    private boolean folderGone() {
        if (gone) {
            return true;
        }
        long now = clock.monotonicNanos();
        if (looked && now - lookedAt < RELOOK_NANOS) {
            return false;
        }
        lookedAt = now;
        looked = true;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.REASONS))) {
            gone = !entries.iterator().hasNext();
        } catch (NoSuchFileException e) {
            gone = true;
        } catch (IOException | RuntimeException e) {
            return false; // unreadable: look per item, as before
        }
        return gone;
    }
}
