package io.leasehold.directory;

import io.leasehold.core.Clock;
import io.leasehold.spool.ItemStore;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * {@code ids/<id>}: the one atomic decision, across instances, that an id is known. Made by an
 * exclusive create (atomic on local filesystems and NFSv3+) when an enqueue of the id starts, or when
 * the drain first meets a file dropped into pending/ under an id nobody reserved, and kept until the
 * item is purged. Looking in four folders one after another could miss an item moving between them;
 * one create cannot. It holds the inode number of the item's payload, which no rename or link changes,
 * so a second file under a known id is told from the first and never runs instead of it.
 */
final class Reservations {

    private static final Logger LOG = Logger.getLogger(Reservations.class);

    /** A reservation still empty this long after it was made lost its maker between create and write. */
    static final Duration WRITE_GRACE = Duration.ofSeconds(10);

    /** What a file may do under an id, by its reservation. */
    enum Admission {
        /** The reservation names this file (made just now if there was none). */
        OWN,
        /** Its maker is writing it: look again in a moment. */
        IN_FLIGHT,
        /** The id is another file's. */
        DUPLICATE,
        /** The reservation is junk (a symlink, a FIFO, garbage): nothing is decided until a person fixes it. */
        JUNK
    }


    /**
     * A reservation an enqueue made: the id, the payload's inode it names, and the reservation file's own
     * inode and modification time as they were just after it was made and dated, by which its maker releases
     * it without opening it (a release must work when descriptors ran out: the error that caused it is often
     * that). Nobody removes a live maker's reservation; a release paid late compares the time too, so a
     * reservation made since under the same inode number is never taken for it.
     */
    record Made(String id, long ino, long fileIno, Instant dated) {
    }

    private final SpoolLayout layout;
    private final SpoolAnomalies anomalies;
    private final Clock clock;
    private final OwedReleases owed;
    private final SettledReserved settled;
    private final ReservationReader reader;
    /** Off by configuration, or once the filesystem refused a link (then plain files, said once in the log). */
    private volatile boolean links;

    Reservations(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock) {
        this(layout, anomalies, clock, true);
    }

    /**
     * @param links reserve by a symbolic link ({@code leasehold.spool.reservation-links}); false: by a plain
     *     file, as builds before 2026-12-07 did, which such builds sharing the spool can read
     */
    Reservations(SpoolLayout layout, SpoolAnomalies anomalies, Clock clock, boolean links) {
        this.links = links;
        this.layout = layout;
        this.anomalies = anomalies;
        this.clock = clock;
        this.owed = new OwedReleases(layout);
        this.settled = new SettledReserved(layout);
        this.reader = new ReservationReader(layout, anomalies, clock);
    }

    /** Whether every settled item has its reservation, which spares a first claim two looks (housekeeping checks). */
    SettledReserved settled() {
        return settled;
    }

    /**
     * Reserves {@code id} for an enqueue of the file with this inode, dated {@code at}; empty when the id is
     * known. A release this instance owes for the id (an earlier enqueue's, which failed) is paid first.
     */
    Optional<Made> reserveOwn(String id, long ino, Instant at) throws IOException {
        owed.payFor(id);
        if (!reserve(id, ino)) {
            return Optional.empty();
        }
        date(id, at);
        Optional<FileFacts> made;
        try {
            made = FileFacts.of(file(id));
        } catch (IOException e) {
            // Made by this call a moment ago, and nobody removes a live maker's: it goes by its name.
            try {
                Files.deleteIfExists(file(id));
            } catch (IOException again) {
                e.addSuppressed(again); // an id with no upload and no item: the bookkeeping sweep's
            }
            throw e;
        }
        if (made.isEmpty()) {
            throw new ItemStore.UploadLostException(id); // removed under a live maker: only by hand
        }
        return Optional.of(new Made(id, ino, made.get().ino(), made.get().modified()));
    }

    /**
     * Its maker takes back a reservation its enqueue made and did not finish, with no descriptor; when that
     * fails too, the release is owed ({@link OwedReleases}) and the failure thrown.
     */
    void release(Made made) throws IOException {
        owed.release(made);
    }

    /** Pays every release owed that can be paid now; returns how many. */
    int payOwed() {
        return owed.payAll();
    }

    /** For tests: a release that failed, as {@link #release(Made)} leaves it. */
    void owe(Made made) {
        owed.owe(made);
    }

    /**
     * Reserves {@code id} for the file with this inode; false when the id is reserved already for another file.
     * One symlink(2) whose target is the inode number: exclusive, and atomic with what it says (a reader never
     * finds it half made), with no data block to write. Never followed: its target names no file. An existing
     * reservation that names this very inode is this file's (an NFS call sent twice finds its own first one).
     */
    boolean reserve(String id, long ino) throws IOException {
        try {
            if (links) {
                Files.createSymbolicLink(file(id), Path.of(Long.toString(ino)));
            } else {
                PlainReservations.create(file(id), ino);
            }
            return true;
        } catch (FileAlreadyExistsException e) {
            ReservationReader.Reservation r = reader.read(id);
            return r.state() == ReservationReader.State.NAMES && r.ino() == ino;
        } catch (FileSystemException e) {
            if (!links || !unsupported(e)) {
                throw e;
            }
            links = false;
            LOG.warnf("the spool's filesystem refused a symbolic link (%s): reservations in %s are plain files from "
                    + "now on, as with leasehold.spool.reservation-links=false", e.getReason(), file(id).getParent());
            return reserve(id, ino);
        }
    }

    private static boolean unsupported(FileSystemException e) {
        String reason = String.valueOf(e.getReason());
        return reason.contains("not permitted") || reason.contains("not supported") || reason.contains("not implemented");
    }

    /**
     * May the file with {@code facts} run as {@code id}? With {@code reserve}, an id nobody reserved is
     * reserved for it, unless done/ or failed/ holds another file under it (an item of an older spool).
     */
    Admission admit(String id, FileFacts facts, boolean reserve) throws IOException {
        // A file dropped in under an id nobody knows, on a spool whose settled items all have their reservation:
        // reserved by the one call, with nothing looked at first.
        if (reserve && settled.all() && reserve(id, facts.ino())) {
            return Admission.OWN;
        }
        for (int look = 0; look < 3; look++) {
            ReservationReader.Reservation r = read(id);
            switch (r.state()) {
                case NAMES:
                    return r.ino() == facts.ino() ? Admission.OWN : Admission.DUPLICATE;
                case JUNK:
                    return Admission.JUNK;
                case EMPTY:
                    if (!reserve || !abandoned(id)) {
                        return Admission.IN_FLIGHT;
                    }
                    PlainReservations.fill(file(id), facts.ino());
                    return Admission.OWN;
                default:
                    if (!settled.all() && settledUnder(id, facts)) {
                        return Admission.DUPLICATE;
                    }
                    if (!reserve || reserve(id, facts.ino())) {
                        return Admission.OWN;
                    }
                    // reserved by another instance just now: look again
            }
        }
        return Admission.IN_FLIGHT;
    }

    /**
     * Dates the reservation {@code at}: what the item's enqueuedAt shows, on the service's clock rather
     * than the filesystem's (an NFS server's). Best effort: the reservation decides, its date only tells.
     */
    void date(String id, Instant at) {
        try {
            java.nio.file.attribute.FileTime time = java.nio.file.attribute.FileTime.from(at);
            Files.getFileAttributeView(file(id), java.nio.file.attribute.BasicFileAttributeView.class,
                    java.nio.file.LinkOption.NOFOLLOW_LINKS).setTimes(time, time, null); // the link's own times
        } catch (IOException e) {
            // the item is enqueued all the same; its enqueuedAt is the file's own write time
        }
    }

    /** Makes the reservation name this inode where nobody else's it is; false when it is another file's. */
    boolean adopt(String id, long ino) throws IOException {
        ReservationReader.Reservation r = read(id);
        return switch (r.state()) {
            case NAMES -> r.ino() == ino;
            case JUNK -> false;
            case EMPTY -> {
                PlainReservations.fill(file(id), ino);
                yield true;
            }
            default -> reserve(id, ino) || adopt(id, ino);
        };
    }

    /**
     * Removes the reservation when it still names this inode: never another's. An empty one may be another
     * maker's between its create and its write, so a live maker's release leaves it alone.
     */
    void release(String id, long ino) throws IOException {
        release(id, ino, false);
    }

    /**
     * As {@link #release(String, long)}, for the leftovers of a maker that is gone: its reservation may also
     * be empty (it died between the create and the write), and then it goes too.
     */
    void releaseOfDeadMaker(String id, long ino) throws IOException {
        release(id, ino, true);
    }

    private void release(String id, long ino, boolean emptyToo) throws IOException {
        ReservationReader.Reservation r = read(id);
        if (emptyToo && r.state() == ReservationReader.State.EMPTY || r.state() == ReservationReader.State.NAMES && r.ino() == ino) {
            Files.deleteIfExists(file(id));
        }
    }

    /** True when there is a reservation of any kind (never followed): the id is known. */
    boolean exists(String id) throws IOException {
        return FileFacts.of(file(id)).isPresent();
    }

    /** Its maker of an older build writes the inode microseconds after the create: an empty one is looked at again. */
    private ReservationReader.Reservation read(String id) throws IOException {
        ReservationReader.Reservation r = reader.read(id);
        for (int look = 0; look < 100 && r.state() == ReservationReader.State.EMPTY; look++) {
            Thread.yield();
            r = reader.read(id);
        }
        return r;
    }

    private boolean abandoned(String id) throws IOException {
        Optional<FileFacts> facts = FileFacts.of(file(id));
        return facts.isPresent() && facts.get().modified().plus(WRITE_GRACE).isBefore(clock.now());
    }

    /** An unreserved id whose done/ or failed/ name holds another file: written before reservations existed. */
    private boolean settledUnder(String id, FileFacts facts) throws IOException {
        for (SpoolFolder settled : new SpoolFolder[] {SpoolFolder.DONE, SpoolFolder.FAILED}) {
            // The careful look: a symlink to nothing under a settled name must count as another file.
            Optional<FileFacts> other = FileFacts.of(layout.file(settled, id));
            if (other.isPresent() && !other.get().sameFileAs(facts)) {
                return true;
            }
        }
        return false;
    }

    private Path file(String id) {
        return layout.file(SpoolFolder.IDS, id);
    }
}
