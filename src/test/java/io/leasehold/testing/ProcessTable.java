package io.leasehold.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Looks at /proc for tests that check which processes are left: whole process groups, command lines. */
public final class ProcessTable {

    private ProcessTable() {
    }

    /** Pids of processes in group {@code pgid} that still run (zombies, which run nothing, are left out). */
    public static List<Long> membersOf(long pgid) {
        List<Long> members = new ArrayList<>();
        for (Path proc : processes()) {
            String[] fields = statFields(proc);
            if (fields != null && Long.parseLong(fields[2]) == pgid && !fields[0].equals("Z") && !fields[0].equals("X")) {
                members.add(Long.parseLong(proc.getFileName().toString()));
            }
        }
        return members;
    }

    public static boolean groupAlive(long pgid) {
        return !membersOf(pgid).isEmpty();
    }

    /** Pids of running processes whose command line holds every one of {@code words} as an argument. */
    public static List<Long> withArguments(String... words) {
        List<Long> found = new ArrayList<>();
        for (Path proc : processes()) {
            try {
                List<String> args = List.of(new String(Files.readAllBytes(proc.resolve("cmdline")),
                        StandardCharsets.UTF_8).split("\0"));
                String[] fields = statFields(proc);
                if (fields != null && !fields[0].equals("Z") && args.containsAll(List.of(words))) {
                    found.add(Long.parseLong(proc.getFileName().toString()));
                }
            } catch (IOException e) {
                // gone meanwhile
            }
        }
        return found;
    }

    /** The fields of /proc/PID/stat after the command name: state, ppid, pgrp, session, ...; null when gone. */
    private static String[] statFields(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        } catch (IOException e) {
            return null;
        }
    }

    private static List<Path> processes() {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            entries.forEach(out::add);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }
}
