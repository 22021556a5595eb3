package io.leasehold.directory.linux;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Linux system calls the JDK's file API does not offer: {@code renameat2(RENAME_NOREPLACE)}, a rename that
 * fails when the target exists (one call where a move that must never replace a file otherwise takes a link
 * and an unlink), {@code utimensat(AT_SYMLINK_NOFOLLOW)} (one call where the JDK looks, opens, sets the
 * times and closes), and {@code syncfs} (one call where a batch's payloads otherwise take an fsync each).
 * Each answers 0 or the call's errno, never throws for what the kernel refused.
 */
public interface LinuxCalls {

    int ENOENT = 2;
    int EIO = 5;
    int EBADF = 9;
    int EEXIST = 17;
    int EINVAL = 22;
    int ENAMETOOLONG = 36;
    int ENOSYS = 38;
    int ENOTSUP = 95;

    /**
     * rename(2) that fails with {@link #EEXIST} when {@code to} exists, never replacing it; {@link #EINVAL} where
     * the filesystem has no such rename (NFS, some FUSE filesystems).
     */
    int renameNoReplace(Path from, Path to);

    /** Sets the access and modification times of the name itself, never of what a symbolic link points to. */
    int setTimesNoFollow(Path file, Instant time);

    /**
     * Whether {@link #syncFileSystem} can be had: a kernel of 5.17 or later, whose syncfs answers every error of
     * its filesystem's write-back since the descriptor was opened (an older one may answer 0 after a failed
     * journal commit or device flush; before 5.8, whatever happened).
     */
    default boolean syncsFileSystems() {
        return false;
    }

    /** A read-only descriptor of the directory ({@code O_DIRECTORY | O_CLOEXEC}), or minus the errno. */
    default int openDirectory(Path dir) {
        return -ENOSYS;
    }

    /**
     * {@code syncfs(2)}: once it answers 0, everything written to the filesystem holding {@code fd} is on disk,
     * and no write-back on it failed since {@code fd} was opened.
     */
    default int syncFileSystem(int fd) {
        return ENOSYS;
    }

    /** Closes a descriptor {@link #openDirectory} made. */
    default int close(int fd) {
        return ENOSYS;
    }

    /**
     * The calls, or empty where they cannot be had: a JDK before 22 (no foreign-function API), a native binary
     * built without it, another OS. The caller then keeps the JDK's way.
     */
    static Optional<LinuxCalls> load() {
        return ForeignCalls.load();
    }
}
