package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code leasehold lease ...} (or any other command line, {@link #runWords}) as a child process of the
 * test: command mode of the packaged artifact
 * (the jar or the native runner, see {@link PackagedArtifact}), with config keys as -D settings and
 * extra environment variables. Inherited NATS_URL and LEASEHOLD_* variables are removed, so only what
 * a test gives counts. stdout and stderr go to
 * files under {@code target/it-logs}. Close it: that kills it (and what it ran) if it still runs.
 */
public final class LeaseCommandProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path out;
    private final Path err;

    /** When the process ended, on the act log's clock (-1 while it runs): stamped as it exits, not when a test looks. */
    private volatile long exitedAtMillis = -1;

    private LeaseCommandProcess(String name, Process process, Path out, Path err) {
        this.name = name;
        this.process = process;
        this.out = out;
        this.err = err;
        process.onExit().thenRun(() -> exitedAtMillis = ActLog.nowMillis());
    }

    /** When it exited, on {@link ActLog#nowMillis()}'s clock; call after {@link #awaitExit}. */
    public long exitedAtMillis() {
        Await.until(name + "'s exit to be stamped", Duration.ofSeconds(10), () -> exitedAtMillis >= 0);
        return exitedAtMillis;
    }

    public static LeaseCommandProcess start(String name, Map<String, String> config, Map<String, String> env,
            String... words) {
        return startIn(null, name, config, env, words);
    }

    /** As {@link #start}, in working directory {@code directory} (null: the test's own). */
    public static LeaseCommandProcess startIn(Path directory, String name, Map<String, String> config,
            Map<String, String> env, String... words) {
        List<String> args = new ArrayList<>(List.of("lease"));
        args.addAll(List.of(words));
        return launch(directory, name, config, env, ProcessBuilder.Redirect.from(new java.io.File("/dev/null")), args);
    }

    /**
     * As {@link #runWords}, left running with its stdin a pipe the test writes ({@link #stdin()}) and keeps
     * open until it closes it.
     */
    public static LeaseCommandProcess startWords(Path directory, String name, Map<String, String> config,
            String... words) {
        return launch(directory, name, config, Map.of(), ProcessBuilder.Redirect.PIPE, List.of(words));
    }

    /** The command's stdin, when started by {@link #startWords}. */
    public java.io.OutputStream stdin() {
        return process.getOutputStream();
    }

    /**
     * Any command line of the artifact ({@code items ...}, {@code spool ...}, {@code --help}; the words as
     * given, no {@code lease} put first), in {@code directory} (null: the test's own), with {@code stdin}
     * (null: none), run to the end within {@code deadline}.
     */
    public static Finished runWords(Path directory, String name, Map<String, String> config, Path stdin,
            Duration deadline, String... words) {
        try (LeaseCommandProcess p = launch(directory, name, config, Map.of(), ProcessBuilder.Redirect.from(
                stdin == null ? new java.io.File("/dev/null") : stdin.toAbsolutePath().toFile()), List.of(words))) {
            int status = p.awaitExit(deadline);
            return new Finished(status, p.stdout(), p.stderr());
        }
    }

    private static LeaseCommandProcess launch(Path directory, String name, Map<String, String> config,
            Map<String, String> env, ProcessBuilder.Redirect stdin, List<String> args) {
        // As a command typed at a terminal: SIGINT not ignored, even when the build runs in the background
        // (a job started with '&' inherits SIGINT ignored, and a JVM cannot undo that).
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT"));
        command.addAll(PackagedArtifact.current().command(
                List.of("-Xmx64m", "-XX:+UseSerialGC"), config, args));
        try {
            Path dir = Files.createDirectories(Path.of("target", "it-logs"));
            String stem = name + "-" + System.nanoTime();
            Path out = dir.resolve(stem + ".out");
            Path err = dir.resolve(stem + ".err");
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).redirectInput(stdin);
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            builder.environment().keySet().removeIf(k -> k.equals("NATS_URL") || k.startsWith("LEASEHOLD_"));
            builder.environment().putAll(env);
            return new LeaseCommandProcess(name, builder.start(), out, err);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    /** Runs to the end (within {@code deadline}) and answers the exit status. */
    public static Finished run(String name, Map<String, String> config, Map<String, String> env, Duration deadline,
            String... words) {
        try (LeaseCommandProcess p = start(name, config, env, words)) {
            int status = p.awaitExit(deadline);
            return new Finished(status, p.stdout(), p.stderr());
        }
    }

    /** What a finished run left: exit status, stdout, stderr. */
    public record Finished(int status, String stdout, String stderr) {
    }

    public long pid() {
        return process.pid();
    }

    public String stdout() {
        return read(out);
    }

    public String stderr() {
        return read(err);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends a signal (TERM, INT, HUP, KILL ...) to the command JVM itself. */
    public void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new AssertionError("kill -" + signal + " " + pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    public int awaitExit(Duration deadline) {
        Await.until(name + " exits (stderr " + err + ")", deadline, () -> !process.isAlive());
        return process.exitValue();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return name + "(pid " + pid() + ")";
    }
}
