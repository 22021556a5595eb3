package io.leasehold.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code nats-server} with JetStream for tests: its own free port, its own store directory and
 * log, optionally a config file (accounts, users, permissions). It can be stopped, killed, restarted on
 * the same port and store, and have its store wiped, so tests can show what the lease does when the bus
 * goes away or loses its data. It never touches the machine's own server on 4222.
 */
public final class NatsServer implements AutoCloseable {

    private static final Duration READY_WITHIN = Duration.ofSeconds(15);

    private final Path binary;
    private final Path home;
    private final Path store;
    private final Path log;
    private final Path config;
    private final int port;
    private Process process;

    private NatsServer(Path binary, Path home, String configText) throws IOException {
        this.binary = binary;
        this.home = home;
        this.store = Files.createDirectories(home.resolve("store"));
        this.log = home.resolve("nats-server.log");
        this.config = configText == null ? null : Files.writeString(home.resolve("nats.conf"), configText);
        this.port = FreePorts.take();
    }

    /** Starts a server with JetStream and no authentication. */
    public static NatsServer start() {
        return start(null);
    }

    /**
     * Starts a server with JetStream and the given config text (may be null). Port, store directory and
     * JetStream are given on the command line, so the text holds only what a test is about, e.g.
     * {@code accounts { A { jetstream: enabled, users: [...] } }}.
     */
    public static NatsServer start(String configText) {
        try {
            NatsServer server = new NatsServer(binary(), Files.createTempDirectory("leasehold-nats-"), configText);
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "nats://127.0.0.1:" + port;
    }

    public Path storeDir() {
        return store;
    }

    public boolean running() {
        return process != null && process.isAlive();
    }

    /** Stops with SIGTERM (the server's clean shutdown, JetStream flushed) and waits for the exit. */
    public void stop() {
        end(false);
    }

    /** Stops with SIGKILL: no flush, like a crashed machine's server. */
    public void kill() {
        end(true);
    }

    /** SIGSTOP: the server stops answering with its connections open, as a stalled machine's; returns once stopped. */
    public void freeze() {
        long pid = process.pid();
        ServiceProcess.signalProcess("STOP", pid);
        Await.until("nats-server stopped", Duration.ofSeconds(10), () -> "T".equals(ServiceProcess.processState(pid)));
    }

    /** Starts again on the same port with the same store (and config). */
    public void restart() {
        end(false);
        launch();
    }

    /** Stops the server and deletes everything JetStream kept; {@link #restart()} then starts empty. */
    public void wipeStore() {
        end(false);
        try (Stream<Path> all = Files.walk(store)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(store)) {
                    Files.delete(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's log so far, for failure messages. */
    public String log() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        end(false);
        try (Stream<Path> all = Files.walk(home)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // A temp directory left behind is harmless; the test result is not.
        }
    }

    private void launch() {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "-a", "127.0.0.1",
                "-p", Integer.toString(port), "-js", "-sd", store.toString()));
        if (config != null) {
            command.addAll(List.of("-c", config.toString()));
        }
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        Process started = process;
        Await.until("nats-server on port " + port + " to accept clients (log: " + log + ")", READY_WITHIN, () -> {
            if (!started.isAlive()) {
                throw new AssertionError("nats-server exited with " + started.exitValue() + ":\n" + log());
            }
            return answersInfo();
        });
    }

    /** A server that accepts a connection and greets with INFO is past JetStream's start. */
    private boolean answersInfo() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            s.setSoTimeout(500);
            String first = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            return first != null && first.startsWith("INFO ");
        } catch (IOException e) {
            return false;
        }
    }

    private void end(boolean hard) {
        if (process == null) {
            return;
        }
        Process p = process;
        process = null;
        if (hard) {
            p.destroyForcibly();
        } else {
            p.destroy();
        }
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                throw new AssertionError("nats-server on port " + port + " did not stop within 10s on SIGTERM");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping nats-server", e);
        }
    }

    private static Path binary() {
        String named = System.getenv("nats_server_path");
        if (named != null && !named.isBlank()) {
            return Path.of(named);
        }
        Path debian = Path.of("/usr/sbin/nats-server");
        if (Files.isExecutable(debian)) {
            return debian;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "nats-server");
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("nats-server is not installed: the lease tests need a real NATS server "
                + "(apt-get install nats-server, or set nats_server_path to its binary)");
    }
}
