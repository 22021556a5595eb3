package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A spool directory under target/ shared by several {@link ServiceProcess}es running the exec
 * handler on a test-written script. The script logs one line per attempt to a shared work log
 * ({@code start|end <id> <attempt> <instance> <pid>}), so a test can tell who ran what, how often.
 */
public final class SharedSpool {

    /** One line of the work log; {@code pid} is the attempt's shell, leader of its process group. */
    public record Run(String kind, String id, int attempt, String instance, long pid) {
    }

    /**
     * A line for a handler body: an item whose id holds {@code -held-} waits until the test opens the
     * gate named by the id up to its first {@code -} ({@link #openGate}), so a test knows it is at work.
     */
    public static final String AWAIT_GATE = "case $LEASEHOLD_ITEM_ID in *-held-*) while [ ! -e"
            + " \"$GATES/${LEASEHOLD_ITEM_ID%%-*}\" ]; do sleep 0.05; done ;; esac";

    private final Path root;
    private final Path spool;
    private final Path workLog;
    private final Path script;

    private SharedSpool(Path root) {
        this.root = root;
        this.spool = root.resolve("spool");
        this.workLog = root.resolve("work.log");
        this.script = root.resolve("work.sh");
    }

    /**
     * Creates the directory and the handler script: {@code body} is the work between the start and
     * end lines, with {@code $LEASEHOLD_ITEM_ID}, {@code $LEASEHOLD_ATTEMPT} and the per-process
     * {@code $INSTANCE} at hand.
     */
    public static SharedSpool create(String name, String body) {
        try {
            Path root = Files.createDirectories(Path.of("target", "it-spool").toAbsolutePath()
                    .resolve(name + "-" + System.currentTimeMillis() + "-" + UniqueNames.next()));
            SharedSpool shared = new SharedSpool(root);
            for (String folder : List.of("tmp", "pending")) {
                Files.createDirectories(shared.spool.resolve(folder));
            }
            Files.createDirectories(shared.gates());
            // Sourced (not run) by the handler's shell, so $$ is the leader of the attempt's process group.
            // Each line is one short append (O_APPEND), so lines from many processes never interleave.
            Files.writeString(shared.script, String.join("\n",
                    "echo \"start $LEASEHOLD_ITEM_ID $LEASEHOLD_ATTEMPT $INSTANCE $$\" >> \"$WORK_LOG\"",
                    body,
                    "echo \"end $LEASEHOLD_ITEM_ID $LEASEHOLD_ATTEMPT $INSTANCE $$\" >> \"$WORK_LOG\"", ""));
            Files.writeString(shared.workLog, "");
            return shared;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path spoolDir() {
        return spool;
    }

    /** The directory holding the spool, the script and the work log: room for a test's own files. */
    public Path root() {
        return root;
    }

    /** The -D settings every instance on this spool shares; {@code overrides} win. */
    public Map<String, String> config(Map<String, String> overrides) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("leasehold.spool.dir", spool.toString());
        config.put("leasehold.handler", "exec");
        config.put("leasehold.handler.exec.command", ". " + script);
        config.putAll(overrides);
        return config;
    }

    /** Environment of one instance: its name for the work log, where the log is, and the gates. */
    public Map<String, String> env(String instance) {
        return Map.of("INSTANCE", instance, "WORK_LOG", workLog.toString(), "GATES", gates().toString());
    }

    /** Lets the held items of {@code name} ({@link #AWAIT_GATE}) go on. */
    public void openGate(String name) {
        try {
            Files.createFile(gates().resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path gates() {
        return root.resolve("gates");
    }

    /** Drops an item in the way any other program would: written in tmp/, then renamed into pending/. */
    public void enqueue(String id, String payload) {
        try {
            Path tmp = spool.resolve("tmp").resolve("enqueue-" + id);
            Files.writeString(tmp, payload, StandardCharsets.UTF_8);
            Files.move(tmp, spool.resolve("pending").resolve(id), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** File names in one folder of the spool, sorted. */
    public TreeSet<String> names(String folder) {
        try (Stream<Path> files = Files.list(spool.resolve(folder))) {
            TreeSet<String> names = new TreeSet<>();
            files.forEach(file -> names.add(file.getFileName().toString()));
            return names;
        } catch (NoSuchFileException e) {
            return new TreeSet<>();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String payload(String folder, String id) {
        try {
            return Files.readString(spool.resolve(folder).resolve(id), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Claim names in claimed/ for this id and attempt (the name is {@code id~attempt-nonce~reading}). */
    public List<String> claims(String id, int attempt) {
        return names("claimed").stream().filter(name -> name.startsWith(id + "~" + attempt + "-")).toList();
    }

    /** Every complete line of the work log, in the order they were appended. */
    public List<Run> runs() {
        try {
            List<Run> runs = new ArrayList<>();
            for (String line : Files.readAllLines(workLog, StandardCharsets.UTF_8)) {
                String[] f = line.trim().split(" ");
                if (f.length == 5) {
                    runs.add(new Run(f[0], f[1], Integer.parseInt(f[2]), f[3], Long.parseLong(f[4])));
                }
            }
            return runs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Run> runs(String kind, String id) {
        return runs().stream().filter(r -> r.kind().equals(kind) && r.id().equals(id)).toList();
    }

    /**
     * The ids of {@code ids} whose work log is not one start and one end of the same attempt, each with
     * its lines: with no holder killed or frozen, anything else is an item run twice or never.
     */
    public Map<String, List<Run>> notRunOnce(Collection<String> ids) {
        Map<String, List<Run>> byId = new TreeMap<>();
        runs().forEach(run -> byId.computeIfAbsent(run.id(), id -> new ArrayList<>()).add(run));
        Map<String, List<Run>> bad = new TreeMap<>();
        for (String id : ids) {
            List<Run> lines = byId.getOrDefault(id, List.of());
            boolean once = lines.size() == 2 && lines.get(0).kind().equals("start") && lines.get(1).kind().equals("end")
                    && lines.get(0).attempt() == lines.get(1).attempt();
            if (!once) {
                bad.put(id, lines);
            }
        }
        return bad;
    }

    /**
     * Kills the process groups of attempts that never logged their end and still run: the watchdog
     * of a SIGKILLed instance kills them, but a test that fails half-way must not leave any behind.
     */
    public void killLeftoverAttempts() {
        running().forEach(start -> ServiceProcess.killGroup(start.pid()));
    }

    /** The start lines of attempts that never logged their end and whose shell still leads its group. */
    public List<Run> running() {
        List<Run> runs = runs();
        return runs.stream().filter(start -> start.kind().equals("start")
                && runs.stream().noneMatch(r -> r.kind().equals("end") && r.pid() == start.pid())
                && isGroupLeader(start.pid())).toList();
    }

    /** Still running and the leader of its own process group, as the handler's shell is. */
    private static boolean isGroupLeader(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return !ServiceProcess.hasEnded(pid) && Long.parseLong(after[2]) == pid;
        } catch (IOException e) {
            return false;
        }
    }
}
