package io.leasehold.handler;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Which process groups still have members, from /proc (Linux): the JDK does not tell a process's group. */
final class ProcessGroups {

    private ProcessGroups() {
    }

    /** Whether any process is in group {@code pgid}; false when /proc cannot be read. */
    static boolean hasMembers(long pgid) {
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                if (groupOf(proc) == pgid) {
                    return true;
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /** Field 5 of /proc/<pid>/stat, after the command name (which may hold spaces and parentheses). */
    private static long groupOf(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(after[2]);
        } catch (IOException | RuntimeException e) {
            return -1; // gone meanwhile, or not readable
        }
    }
}
