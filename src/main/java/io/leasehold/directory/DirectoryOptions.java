package io.leasehold.directory;

/**
 * How the directory spool writes its files, where more than one way keeps the same protocol.
 *
 * @param reservationLinks {@code leasehold.spool.reservation-links}: reserve an id by a symbolic link; false: by
 *        a plain file, which builds before 2026-12-07 need to read
 * @param linuxCalls {@code leasehold.spool.linux-calls}: settle by one {@code renameat2(RENAME_NOREPLACE)} and
 *        date a settlement by one {@code utimensat}, where the JDK can call them (Java 22 and later) and the
 *        filesystem has them; false, or where not: by the JDK's link, unlink and set-times
 */
public record DirectoryOptions(boolean reservationLinks, boolean linuxCalls) {

    /** Both on: the defaults of the configuration. */
    public static final DirectoryOptions DEFAULTS = new DirectoryOptions(true, true);

    public DirectoryOptions withReservationLinks(boolean links) {
        return new DirectoryOptions(links, linuxCalls);
    }

    public DirectoryOptions withLinuxCalls(boolean calls) {
        return new DirectoryOptions(reservationLinks, calls);
    }
}
