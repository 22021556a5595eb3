package io.leasehold.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotLinkException;
import java.nio.file.Path;

/**
 * A reservation {@code ids/<id>} as tests look at it: a symbolic link whose target is the inode number (or an
 * older build's plain file holding it), so it is looked at and never followed. {@code Files.exists} follows
 * links and would call every reservation absent.
 */
public final class Reservation {

    private Reservation() {
    }

    /** Whether anything is under the name, a link included. */
    public static boolean present(Path file) {
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS);
    }

    /** The inode number the reservation names, as text: the link's target, or the file's content. */
    public static String text(Path file) throws IOException {
        try {
            return Files.readSymbolicLink(file).toString();
        } catch (NotLinkException e) {
            return Files.readString(file).trim();
        }
    }
}
