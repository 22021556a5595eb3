package io.leasehold.bench;

import io.leasehold.testing.Await;
import io.leasehold.testing.FreePorts;
import io.leasehold.testing.PackagedArtifact;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The packaged service as its own process ({@link PackagedArtifact}), on a free port and a spool of its own. */
final class BenchService implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final int port;
    final Path log;

    private BenchService(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts the service; does not wait for it (a drain from the first claim on is what gets timed). */
    static BenchService start(Path spool, int concurrency, boolean auto, Path log) throws IOException {
        return start(spool, concurrency, auto, log, Map.of());
    }

    /** As {@link #start(Path, int, boolean, Path)}, with settings of the benchmark's own (another spool kind). */
    static BenchService start(Path spool, int concurrency, boolean auto, Path log, Map<String, String> more)
            throws IOException {
        int port = FreePorts.take();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("quarkus.http.host", "127.0.0.1");
        settings.put("quarkus.http.port", Integer.toString(port));
        settings.put("leasehold.spool.dir", spool.toString());
        settings.put("leasehold.drain.concurrency", Integer.toString(concurrency));
        settings.put("leasehold.drain.auto", Boolean.toString(auto));
        // Items are true no-ops: the log handler logs nothing per item at WARN.
        settings.put("quarkus.log.category.\"io.leasehold.handler.LogHandler\".level", "WARN");
        // -Dbench.linux-calls=false: the JDK's link, unlink and set-times, in the service as in BareDrain
        settings.put("leasehold.spool.linux-calls", Boolean.toString(BareDrain.LINUX.isPresent()));
        settings.putAll(more);
        List<String> command = PackagedArtifact.current().command(List.of("-Xmx256m"), settings, List.of());
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        return new BenchService(process, port, log);
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    void awaitReady() {
        Await.until("the service on port " + port + " to be ready (log: " + log + ")", Duration.ofSeconds(60), () -> {
            if (!process.isAlive()) {
                throw new AssertionError("the service exited with " + process.exitValue() + "; see " + log);
            }
            try {
                return get("/q/health/ready").statusCode() == 200;
            } catch (UncheckedIOException e) {
                return false;
            }
        });
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60)).GET().build());
    }

    HttpResponse<String> post(String path) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofMinutes(10)).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Milliseconds one GET takes; the answer must be 200. */
    double timedGet(String path) {
        long start = System.nanoTime();
        HttpResponse<String> response = get(path);
        double ms = (System.nanoTime() - start) / 1e6;
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return ms;
    }

    /** Resident set size of the process, in MiB, from /proc. */
    double rssMiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no VmRSS for " + pid());
    }

    /** Heap in use and its old generation, in MiB, from /q/metrics (scraped a few times first). */
    double[] heapMiB() {
        String body = "";
        for (int i = 0; i < 3; i++) {
            body = get("/q/metrics").body();
        }
        double used = 0;
        double old = 0;
        for (String line : body.split("\n")) {
            if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                used += value(line);
                if (line.contains("Old Gen") || line.contains("Tenured")) {
                    old += value(line);
                }
            }
        }
        if (used == 0) {
            throw new AssertionError("no heap figures in /q/metrics");
        }
        return new double[] {used / 1048576.0, old / 1048576.0};
    }

    private static double value(String line) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    /** CPU time (user + system) the process has used so far, in seconds, from /proc/<pid>/stat. */
    double cpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid()), "stat"));
            // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // USER_HZ is 100 on Linux
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Graceful stop (SIGTERM), as a supervisor would. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
