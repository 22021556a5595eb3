package io.leasehold.directory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Releases of this instance's own reservations that failed (descriptors ran out, say): the id stays known
 * meanwhile, and the release is paid by the id's next enqueue here and by housekeeping, only while the
 * reservation is still the very file its enqueue made.
 */
final class OwedReleases {

    private final SpoolLayout layout;
    private final Map<String, Reservations.Made> owed = new ConcurrentHashMap<>();

    OwedReleases(SpoolLayout layout) {
        this.layout = layout;
    }

    /** Pays the release owed for {@code id}, if any, before the id is reserved again. */
    void payFor(String id) throws IOException {
        Reservations.Made before = owed.get(id);
        if (before != null) {
            pay(before);
        }
    }

    /**
     * Its maker takes back a reservation its enqueue made and did not finish: by one stat(2) and one
     * unlink(2), no descriptor. When that fails too, the release is owed (paid by {@link #payAll()} and
     * by the id's next enqueue here) and the failure thrown; the caller adds it to the error it answers.
     */
    void release(Reservations.Made made) throws IOException {
        try {
            releaseNow(made);
        } catch (IOException e) {
            owed.putIfAbsent(made.id(), made);
            throw e;
        }
    }

    /** Pays every release owed that can be paid now; returns how many. */
    int payAll() {
        int paid = 0;
        for (Reservations.Made made : List.copyOf(owed.values())) {
            try {
                paid += pay(made) ? 1 : 0;
            } catch (IOException e) {
                // still owed: the next pass tries again
            }
        }
        return paid;
    }

    /** Pays one debt: taken off the list first, so two payers never both act on it; put back when it fails. */
    private boolean pay(Reservations.Made made) throws IOException {
        if (!owed.remove(made.id(), made)) {
            return false; // paid by another thread meanwhile
        }
        try {
            releaseNow(made);
            return true;
        } catch (IOException e) {
            owed.putIfAbsent(made.id(), made);
            throw e;
        }
    }

    /** Unlinks the reservation when it is still the very file that was made. */
    private void releaseNow(Reservations.Made made) throws IOException {
        Optional<FileFacts> now = FileFacts.of(file(made.id()));
        if (now.isPresent() && now.get().ino() == made.fileIno() && now.get().modified().equals(made.dated())) {
            Files.deleteIfExists(file(made.id()));
        }
    }

    /** For tests: a release that failed, as {@link #release(Made)} leaves it. */
    void owe(Reservations.Made made) {
        owed.put(made.id(), made);
    }

    private Path file(String id) {
        return layout.file(SpoolFolder.IDS, id);
    }
}
