package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A wrong wall clock for one process, by libfaketime (Debian's {@code faketime}) preloaded into it.
 * Only the wall clock is faked: the monotonic clock runs true, as it does when NTP steps a real clock.
 * Either a fixed offset, or an offset read from a file (again every second), which the test changes
 * to step the clock while the process runs.
 */
public final class Faketime {

    static final Path LIBRARY = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");

    private final Path file;

    private Faketime(Path file) {
        this.file = file;
    }

    /** Environment for a process whose wall clock is off by {@code offset} (libfaketime's syntax: -1h, +10m). */
    public static Map<String, String> offset(String offset) {
        Map<String, String> env = preload();
        env.put("FAKETIME", offset);
        return env;
    }

    /** A clock offset read from {@code file}, starting at {@code +0}; {@link #step} changes it. */
    public static Faketime steppable(Path file) {
        Faketime clock = new Faketime(file.toAbsolutePath());
        clock.step("+0");
        return clock;
    }

    public Map<String, String> env() {
        Map<String, String> env = preload();
        env.put("FAKETIME_TIMESTAMP_FILE", file.toString());
        // Read again at most every second, so a step shows within one. FAKETIME_NO_CACHE (read at every
        // reading) costs ~40 µs per clock call: the service then took over 90 s to start here.
        env.put("FAKETIME_CACHE_DURATION", "1");
        return env;
    }

    /** From now on the process's wall clock is off by {@code offset}: a step, as NTP makes. */
    public void step(String offset) {
        try {
            // Written aside and renamed in: the process never reads a half-written offset.
            Path aside = file.resolveSibling(file.getFileName() + ".new");
            Files.writeString(aside, offset + "\n");
            Files.move(aside, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> preload() {
        if (!Files.isReadable(LIBRARY)) {
            throw new IllegalStateException(LIBRARY + " is missing: the clock fault tests need libfaketime"
                    + " (apt-get install -y faketime, as .ci/run does)");
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LD_PRELOAD", LIBRARY.toString());
        env.put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        // libfaketime turns this on for this glibc, and it moves the deadlines of the JVM's timed waits
        // (monotonic condition variables): every parked thread then woke at once, over and over, and the
        // service took 30 s instead of 3 to start. Off, timed waits wait as long as they are asked to.
        env.put("FAKETIME_FORCE_MONOTONIC_FIX", "0");
        env.put("NO_FAKE_STAT", "1"); // file times stay true: only the clock is at fault, and stat() stays cheap
        return env;
    }
}
