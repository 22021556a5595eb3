package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs the test mounts on a directory of its own (under target/), for faults a real
 * filesystem gives and chmod cannot fake for root: a full disk and a read-only mount. Needs root
 * (mount(8)); without it every method fails saying so, never skips. Close it to unmount.
 */
public final class Tmpfs implements AutoCloseable {

    private final Path dir;
    private boolean mounted;

    private Tmpfs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code size} (mount's syntax, e.g. {@code 4m}) on {@code dir}, made when missing. */
    public static Tmpfs mount(Path dir, String size) {
        requireRoot();
        Tmpfs tmpfs = new Tmpfs(dir.toAbsolutePath());
        try {
            Files.createDirectories(tmpfs.dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0755", "tmpfs", tmpfs.dir.toString());
        tmpfs.mounted = true;
        return tmpfs;
    }

    public Path dir() {
        return dir;
    }

    /** Read-only from now on, for root too (which chmod would not stop). */
    public void remountReadOnly() {
        run("mount", "-o", "remount,ro", dir.toString());
    }

    public void remountWritable() {
        run("mount", "-o", "remount,rw", dir.toString());
    }

    /**
     * Writes {@code file} (on this tmpfs) until the filesystem refuses with ENOSPC, so that nothing more
     * can be written anywhere on it; returns how many bytes it took.
     */
    public long fill(Path file) {
        long written = 0;
        // Large blocks first, then pages, so that no free page is left behind a refused large write.
        for (int size : new int[] {64 * 1024, 4096}) {
            ByteBuffer block = ByteBuffer.allocate(size);
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                while (true) {
                    block.clear();
                    written += out.write(block);
                }
            } catch (IOException e) {
                if (e.getMessage() == null || !e.getMessage().contains("No space left on device")) {
                    throw new UncheckedIOException("filling " + file + " failed otherwise than with ENOSPC", e);
                }
            }
        }
        return written;
    }

    /** Unmounts; a mount still busy (a process with a file open there) is detached lazily instead. */
    @Override
    public void close() {
        if (mounted) {
            mounted = false;
            if (exec("umount", dir.toString()) != null) {
                run("umount", "-l", dir.toString());
            }
        }
    }

    /** Fails, naming what needs root, unless the test runs as root (uid 0). */
    public static void requireRoot() {
        String uid = uid();
        if (!uid.equals("0")) {
            throw new IllegalStateException("the tmpfs fault tests mount filesystems, which needs root (uid " + uid
                    + " here): run them as root, as .ci/run does");
        }
    }

    private static String uid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1]; // real uid; effective and saved follow
                }
            }
            throw new IllegalStateException("no Uid line in /proc/self/status");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void run(String... command) {
        String failure = exec(command);
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    /** Runs a command; null when it exited 0, otherwise what it said and its status. */
    private static String exec(String... command) {
        String line = String.join(" ", command);
        try {
            Path output = Files.createTempFile("tmpfs-", ".out");
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(line + " did not finish within 30 s");
            }
            String said = Files.readString(output).strip();
            Files.delete(output);
            return p.exitValue() == 0 ? null : line + " exited with " + p.exitValue() + ": " + said;
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + line + " (util-linux's mount, as .ci/run installs)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + line, e);
        }
    }
}
