package io.leasehold.directory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code reasons/<id>}: what spools kept before per-claim records, {@code <generation> <abandoned>} then the
 * text. Read for the claim of the generation it names (a claim parked for a retry) and for the reason of a
 * failed item with no record. The drain's claims and settlements never look for one: a claim of a pending
 * item carries only a hand-back's record, and a settlement writes its own verdict, which goes before an old
 * reason; housekeeping removes the old reasons of items that are done or gone.
 */
final class LegacyReasons {

    /** What {@code reasons/<id>} says. */
    record Legacy(String generation, int abandoned, String text) {
    }

    /** Reads a spool file within the records' bound; empty when it is gone or junk (reported). */
    @FunctionalInterface
    interface Reader {
        Optional<String> read(SpoolFolder folder, String name, Path file) throws IOException;
    }

    private final SpoolLayout layout;
    private final Reader reader;

    LegacyReasons(SpoolLayout layout, Reader reader) {
        this.layout = layout;
        this.reader = reader;
    }

    /** False when the item surely has no old reason; true when it may (a symlink to nothing counts as one). */
    boolean mayExist(String id) {
        return FileFacts.mayExist(layout.file(SpoolFolder.REASONS, id));
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
}
