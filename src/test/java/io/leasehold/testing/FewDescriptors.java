package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real descriptor exhaustion in this JVM, for a moment: its soft open-files limit is lowered with
 * prlimit(1), every descriptor under it is taken by /dev/null, then exactly {@code free} are given back.
 * The next calls that open a file meet EMFILE from the kernel after {@code free} opens. Closing restores
 * the limit. Only for tests that run nothing else at the same time in the JVM (no service, no threads of
 * their own that open files).
 */
public final class FewDescriptors implements AutoCloseable {

    private static final long PID = ProcessHandle.current().pid();
    private final String softBefore;
    private final List<FileChannel> taken = new ArrayList<>();

    private FewDescriptors(int free) throws IOException {
        softBefore = soft();
        int open = OpenDescriptors.count(PID);
        prlimit((open + 256) + ":");
        try {
            while (true) {
                taken.add(FileChannel.open(Path.of("/dev/null"), StandardOpenOption.READ));
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("Too many open files")) {
                close();
                throw e;
            }
        }
        for (int i = 0; i < free && !taken.isEmpty(); i++) {
            taken.remove(taken.size() - 1).close();
        }
    }

    /**
     * Takes every descriptor still free, as a burst of connections arriving at that moment would, until
     * {@link #close()}: the next open fails with EMFILE, and so does every open after a close frees one.
     */
    public synchronized void takeTheRest() {
        try {
            while (true) {
                taken.add(FileChannel.open(Path.of("/dev/null"), StandardOpenOption.READ));
            }
        } catch (IOException e) {
            // none left
        }
    }

    /** This JVM with {@code free} descriptors left until {@link #close()}. */
    public static FewDescriptors leaving(int free) throws IOException {
        return new FewDescriptors(free);
    }

    @Override
    public synchronized void close() {
        for (FileChannel c : taken) {
            try {
                c.close();
            } catch (IOException e) {
                // /dev/null: nothing to flush
            }
        }
        taken.clear();
        prlimit(softBefore + ":");
    }

    private static String soft() throws IOException {
        for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith("Max open files")) {
                return line.substring("Max open files".length()).trim().split("\\s+")[0];
            }
        }
        throw new IOException("no Max open files in /proc/self/limits");
    }

    private static void prlimit(String nofile) {
        try {
            Process p = new ProcessBuilder("prlimit", "--pid", Long.toString(PID), "--nofile=" + nofile)
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("prlimit --nofile=" + nofile + " failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
