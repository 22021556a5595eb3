package io.leasehold.directory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Who made a batch folder, precisely enough to prove the maker dead: the boot, the PID namespace, the pid
 * and the process's start time (in clock ticks since boot, from /proc). An instance in the same boot and
 * namespace can tell whether that very process still runs: a pid reused by another process starts at
 * another tick. Anywhere else (another host on a shared spool, another container, no /proc) nothing can
 * be proven, and only the staleness rule applies.
 */
final class MakerIdentity {

    static final String UNKNOWN = "unknown";
    private static final String CURRENT = read();

    private MakerIdentity() {
    }

    /** This process's identity, {@code <boot>.<pid namespace>.<pid>.<start ticks>}: no '~' and no '/'. */
    static String current() {
        return CURRENT;
    }

    /** True only when the identity is of this boot and namespace, and no process with it runs any more. */
    static boolean provablyDead(String identity) {
        String[] theirs = identity.split("\\.");
        String[] ours = CURRENT.split("\\.");
        if (theirs.length != 4 || ours.length != 4 || !theirs[0].equals(ours[0]) || !theirs[1].equals(ours[1])) {
            return false;
        }
        try {
            return startTicks(Path.of("/proc", theirs[2], "stat")).map(start -> !start.equals(theirs[3])).orElse(true);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String read() {
        try {
            String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim().replace("-", "");
            String ns = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString().replaceAll("[^0-9]", "");
            String pid = Long.toString(ProcessHandle.current().pid());
            Optional<String> start = startTicks(Path.of("/proc", pid, "stat"));
            if (boot.isEmpty() || ns.isEmpty() || start.isEmpty()) {
                return UNKNOWN;
            }
            return boot + "." + ns + "." + pid + "." + start.get();
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** Field 22 of /proc/<pid>/stat; empty when there is no such process. */
    private static Optional<String> startTicks(Path stat) throws IOException {
        String text;
        try {
            text = Files.readString(stat);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        // The command name in parentheses may hold spaces: count the fields after its last ')'.
        String[] fields = text.substring(text.lastIndexOf(')') + 2).trim().split(" ");
        return Optional.of(fields[19]);
    }
}
