package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One packaged leasehold service (the jar or the native runner, see {@link PackagedArtifact}) as a
 * child process of the test, for tests that run several instances on one spool and stop, freeze or
 * kill them with real signals. Its output goes to a file under {@code target/it-logs}. Close it (try-with-resources or @AfterEach): that
 * kills it whatever state it is in.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int port;
    private final Path log;
    private final Process process;

    private ServiceProcess(String name, int port, Path log, Process process) {
        this.name = name;
        this.port = port;
        this.log = log;
        this.process = process;
    }

    /**
     * Starts the packaged service ({@link PackagedArtifact}) with the given config keys as -D settings (the
     * HTTP port is added) and extra environment variables. Does not wait for readiness.
     */
    public static ServiceProcess start(String name, Map<String, String> config, Map<String, String> env) {
        return start(name, config, env, List.of());
    }

    /**
     * As {@link #start(String, Map, Map)}, with the launcher's command run by {@code wrapper} (words put
     * before it), e.g. {@code sh -c 'ulimit -n 128; exec "$@"' sh} for a process with few descriptors.
     * The wrapper must {@code exec} the command, so that {@link #pid()} is the service's own.
     */
    public static ServiceProcess start(String name, Map<String, String> config, Map<String, String> env,
            List<String> wrapper) {
        return start(name, config, env, wrapper, PackagedArtifact.current());
    }

    /** As {@link #start(String, Map, Map, List)}, running {@code artifact} (the jar on another JDK, say). */
    public static ServiceProcess start(String name, Map<String, String> config, Map<String, String> env,
            List<String> wrapper, PackagedArtifact artifact) {
        int port = FreePorts.take();
        Map<String, String> settings = new LinkedHashMap<>(config);
        settings.put("quarkus.http.port", Integer.toString(port));
        // Several processes share two cores with the build: keep each small (C1 alone: its.jvm.options, the pom).
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(artifact.command(
                List.of("-Xmx160m", "-XX:+UseSerialGC"), settings, List.of()));
        try {
            Path dir = Files.createDirectories(Path.of("target", "it-logs"));
            Path log = dir.resolve(name + "-" + System.currentTimeMillis() + "-" + UniqueNames.next()
                    + ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(env);
            return new ServiceProcess(name, port, log, builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public int port() {
        return port;
    }

    public Path logFile() {
        return log;
    }

    public String logText() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits until this process says it listens on its port and /q/health/ready answers 200; fails at once
     * if the process died meanwhile. The log line matters: without it, another process on the same port
     * could answer the readiness check for one that is about to die of "address in use".
     */
    public ServiceProcess awaitReady(Duration deadline) {
        Pattern listening = Pattern.compile("Listening on: http://\\S*:" + port + "(?!\\d)");
        Await.until(name + " ready on port " + port + " (log " + log + ")", deadline, () -> {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + " before it was ready:\n"
                        + logText());
            }
            boolean bound = listening.matcher(logText()).find();
            return bound && status("/q/health/ready") == 200;
        });
        return this;
    }

    /** HTTP status of a GET, or -1 when nothing answered. */
    public int status(String path) {
        try {
            return send(HttpRequest.newBuilder(uri(path)).GET()).statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    /** Body of a GET that must answer 200. */
    public String get(String path) {
        try {
            HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).GET());
            if (response.statusCode() != 200) {
                throw new AssertionError("GET " + path + " on " + name + " answered " + response.statusCode()
                        + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path + " on " + name, e);
        }
    }

    /** Any request, answered whatever its status: {@code request} completes a builder already aimed at {@code path}. */
    public HttpResponse<String> request(String path, UnaryOperator<HttpRequest.Builder> request) {
        try {
            return send(request.apply(HttpRequest.newBuilder(uri(path))));
        } catch (IOException e) {
            throw new UncheckedIOException(path + " on " + name, e);
        }
    }

    /** {@code POST /items?id=id} with {@code payload}, answered whatever its status. */
    public HttpResponse<String> enqueue(String id, String payload) {
        return request("/items?id=" + id, b -> b.header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofString(payload)));
    }

    /** Sum of every sample of a Prometheus metric (all tag combinations matching {@code tags}). */
    public double metric(String metricName, String tags) {
        Pattern line = Pattern.compile("^" + Pattern.quote(metricName) + "(\\{[^}]*})?\\s+(\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(get("/q/metrics"));
        double sum = 0;
        while (m.find()) {
            if (tags.isEmpty() || (m.group(1) != null && m.group(1).contains(tags))) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** SIGKILL: the instance dies at once, leaving its claims to expire. */
    public void kill() {
        signal("KILL");
    }

    /** SIGSTOP: frozen, as a paused VM or a long GC pause; returns once the kernel shows it stopped. */
    public void freeze() {
        signal("STOP");
        Await.until(name + " stopped", Duration.ofSeconds(10), () -> "T".equals(processState(pid())));
    }

    /** SIGCONT after {@link #freeze()}. */
    public void resume() {
        signal("CONT");
    }

    /**
     * The JVM's dump of every thread (SIGQUIT, written to the log), for a failure message when the
     * service stopped answering; it needs no connection and no free descriptor.
     */
    public String threadDump() {
        int before = logText().split("Full thread dump", -1).length;
        signal("QUIT");
        Await.until(name + " dumps its threads", Duration.ofSeconds(10),
                () -> logText().split("Full thread dump", -1).length > before);
        String text = logText();
        return text.substring(text.lastIndexOf("Full thread dump"));
    }

    /** SIGTERM: a clean stop request. */
    public void terminate() {
        signal("TERM");
    }

    private void signal(String signal) {
        sendSignal(signal, Long.toString(pid()));
    }

    /** SIGKILL to a whole process group, e.g. handler processes a killed instance left behind. */
    public static void killGroup(long pgid) {
        signalGroup("KILL", pgid);
    }

    /** Any signal (STOP, CONT, KILL ...) to one process. */
    public static void signalProcess(String signal, long pid) {
        sendSignal(signal, Long.toString(pid));
    }

    /** Any signal (STOP, CONT, KILL ...) to a whole process group. */
    public static void signalGroup(String signal, long pgid) {
        sendSignal(signal, "-" + pgid);
    }

    private static void sendSignal(String signal, String target) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, "--", target).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new AssertionError("kill -" + signal + " " + target + " did not finish");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The one-letter state from /proc/<pid>/stat (R, S, T, Z, ...), or null when there is no such process. */
    public static String processState(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name in parentheses may hold spaces; the state follows the last ')'.
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Gone or a zombie: it runs no more. */
    public static boolean hasEnded(long pid) {
        String state = processState(pid);
        return state == null || state.equals("Z") || state.equals("X");
    }

    /** Waits for the process to exit and returns its exit status. */
    public int awaitExit(Duration deadline) {
        Await.until(name + " exits", deadline, () -> !process.isAlive());
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly(); // SIGKILL, which also ends a stopped process
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return name + "(pid " + pid() + ", port " + port + ")";
    }
}
