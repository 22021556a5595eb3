package io.leasehold.config;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * This process's soft limit of open files ({@code ulimit -n}): the one the kernel enforces. The JVM raises
 * it to the hard limit at start (-XX:+MaxFDLimit) and a native binary does not, so it is read as it is
 * now, from {@code /proc/self/limits} (Linux, also in a native binary), else from the JVM's bean.
 */
public final class OpenFilesLimit {

    static final Path PROC_LIMITS = Path.of("/proc/self/limits");
    private static final String ROW = "Max open files";

    private OpenFilesLimit() {
    }

    /** The soft limit now; empty when neither source knows it. */
    public static OptionalLong current() {
        try {
            OptionalLong read = parse(Files.readString(PROC_LIMITS, StandardCharsets.US_ASCII));
            if (read.isPresent()) {
                return read;
            }
        } catch (IOException | SecurityException e) {
            // No procfs (not Linux, or hidden): ask the JVM.
        }
        return fromBean();
    }

    /**
     * The soft limit in the text of a {@code /proc/<pid>/limits} file: the row "Max open files", then soft
     * limit, hard limit and unit; "unlimited" is {@link Long#MAX_VALUE}. Empty when there is no such row.
     */
    static OptionalLong parse(String limits) {
        for (String line : limits.split("\n")) {
            if (!line.startsWith(ROW)) {
                continue;
            }
            String[] columns = line.substring(ROW.length()).trim().split("\\s+");
            if (columns[0].equals("unlimited")) {
                return OptionalLong.of(Long.MAX_VALUE);
            }
            try {
                long soft = Long.parseLong(columns[0]);
                return soft < 0 ? OptionalLong.empty() : OptionalLong.of(soft);
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.empty();
    }

    private static OptionalLong fromBean() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long max = unix.getMaxFileDescriptorCount();
            return max > 0 ? OptionalLong.of(max) : OptionalLong.empty();
        }
        return OptionalLong.empty();
    }
}
