package io.leasehold.directory;

import io.leasehold.core.Clock;
import io.leasehold.spool.UnfitFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;

/**
 * Reads what a reservation {@code ids/<id>} names, in either form: a symbolic link whose target is the inode
 * number (one readlink(2), never followed), or a plain file holding it, as builds before made them. Anything
 * else under the name (a link to a path, a FIFO, a directory, a file that is no number) is junk: reported,
 * and nothing under the id is decided until a person fixes it.
 */
final class ReservationReader {

    static final long MAX_BYTES = 64;

    enum State { ABSENT, EMPTY, NAMES, JUNK }

    record Reservation(State state, long ino) {
    }

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies;
    private final Clock clock;

    ReservationReader(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock) {
        this.layout = layout;
        this.anomalies = anomalies;
        this.clock = clock;
    }

    Reservation read(String id) throws IOException {
        try {
            return named(Files.readSymbolicLink(file(id)).toString(), id);
        } catch (NotLinkException e) {
            return readFile(id);
        } catch (NoSuchFileException e) {
            return new Reservation(State.ABSENT, 0);
        }
    }

    /** Whether {@code file} is a reservation as the spool makes them (either form); false for junk. */
    static boolean fit(Path file) throws IOException {
        try {
            Long.parseLong(Files.readSymbolicLink(file).toString());
            return true;
        } catch (NumberFormatException e) {
            return false;
        } catch (NotLinkException e) {
            try {
                SpoolFiles.fitAttributes(file, MAX_BYTES);
                return true;
            } catch (UnfitFileException unfit) {
                return false;
            }
        }
    }

    private Reservation named(String text, String id) {
        if (text.isEmpty()) {
            return new Reservation(State.EMPTY, 0); // a file an older build's maker has not written yet
        }
        try {
            return new Reservation(State.NAMES, Long.parseLong(text));
        } catch (NumberFormatException e) {
            anomalies.report(SpoolFolder.IDS, id, "not a reservation (one inode number)", clock.now());
            return new Reservation(State.JUNK, 0);
        }
    }

    private Reservation readFile(String id) throws IOException {
        String text;
        try {
            text = new String(SpoolFiles.readBounded(file(id), MAX_BYTES), StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException e) {
            return new Reservation(State.ABSENT, 0);
        } catch (UnfitFileException e) {
            anomalies.report(SpoolFolder.IDS, id, e.getMessage(), clock.now());
            return new Reservation(State.JUNK, 0);
        }
        return named(text, id);
    }

    private Path file(String id) {
        return layout.file(SpoolFolder.IDS, id);
    }
}
