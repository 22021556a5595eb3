package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.FreePorts;
import io.leasehold.testing.PackagedArtifact;
import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packaged service (jar or native runner, {@link PackagedArtifact}) given a bad configuration, from
 * each place a setting can come from: it exits 1 with exactly one line on stderr naming the key, nothing
 * on stdout, and has started nothing: no spool folder in its working directory, no HTTP listener.
 */
class ConfigErrorsIT {

    private static final long DEADLINE_SECONDS = 60;

    /**
     * A listener that takes connections (the kernel's backlog) and never says a word: a NATS stalled, not
     * gone. The start then waits the whole connect timeout, past the schedules' first tick, which must not
     * open the spool itself nor log (CI once saw a tick's stack trace on stdout here).
     */
    private static final java.net.ServerSocket SILENT_NATS;

    static {
        try {
            SILENT_NATS = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A bad setting: as -D settings, environment variables and the text of config/application.properties. */
    record Bad(String what, Map<String, String> settings, Map<String, String> env, String file, String key,
            List<String> wrapper, String leads, String says) {
        Bad(String what, Map<String, String> settings, Map<String, String> env, String file, String key,
                List<String> wrapper) {
            this(what, settings, env, file, key, wrapper, "leasehold: invalid configuration: ", null);
        }

        Bad(String what, Map<String, String> settings, Map<String, String> env, String file, String key,
                List<String> wrapper, String leads) {
            this(what, settings, env, file, key, wrapper, leads, null);
        }

        /** As {@link #of}, whose one line must be {@code says} exactly: the rule that says the fix. */
        static Bad saying(String what, String says, String key, String... settings) {
            Bad bad = of(what, key, settings);
            return new Bad(what, bad.settings(), Map.of(), bad.file(), key, List.of(), bad.leads(), says);
        }

        static Bad of(String what, String key, String... settings) {
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < settings.length; i += 2) {
                map.put(settings[i], settings[i + 1]);
            }
            return new Bad(what, map, Map.of(), null, key, List.of());
        }

        @Override
        public String toString() {
            return what;
        }
    }

    /** The refusal README.md's Configuration section shows. */
    static String readmeSample() {
        try {
            String readme = Files.readString(Path.of("README.md"));
            int section = readme.indexOf("\n## Configuration\n");
            int open = readme.indexOf("\n```\n", section);
            return readme.substring(open + 5, readme.indexOf("\n```", open + 5)).strip();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Stream<Arguments> bad() {
        return Stream.of(
                // The README's sample refusal is this case's very line.
                Bad.saying("a name outside the choice", readmeSample(), "leasehold.drain.mode",
                        "leasehold.drain.mode", "bogus"),
                Bad.of("a number out of range (a record's rule)", "leasehold.claim.renewals-per-lease",
                        "leasehold.claim.renewals-per-lease", "1"),
                Bad.of("a period below a second", "leasehold.drain.poll-interval",
                        "leasehold.drain.poll-interval", "500ms"),
                Bad.of("uploads taking the drain's worker threads", "leasehold.item.max-uploads",
                        "quarkus.thread-pool.max-threads", "40", "leasehold.item.max-uploads", "30"),
                Bad.of("connections over the descriptor budget", "quarkus.http.limits.max-connections",
                        "quarkus.http.limits.max-connections", "1000000000"),
                new Bad("an open-files limit below the reserve", Map.of(), Map.of(), null,
                        "leasehold.drain.concurrency", List.of("sh", "-c", "ulimit -n 90 && exec \"$@\"", "sh")),
                Bad.of("exec without its command", "leasehold.handler.exec.command", "leasehold.handler", "exec"),
                Bad.of("a handler naming no bean (checked in the boot)", "leasehold.handler",
                        "leasehold.handler", "no-such-handler"),
                Bad.of("a value of the wrong type", "leasehold.drain.concurrency", "leasehold.drain.concurrency", "abc"),
                Bad.of("a spool directory that cannot be made (checked in the boot)", "leasehold.spool.dir",
                        "leasehold.spool.dir", "/dev/null/spool"),
                Bad.of("a ${...} nothing sets", "leasehold.spool.dir",
                        "leasehold.spool.dir", "${LEASEHOLD_IT_NOTHING_SETS_THIS}"),
                // An optional key the mapping would read as unset: the API would run without its token.
                Bad.of("a secret whose ${...} nothing sets", "leasehold.api.token",
                        "leasehold.api.token", "abc${LEASEHOLD_IT_NOTHING_SETS_THIS}"),
                Bad.of("a misspelt key", "leasehold.api.tokn", "leasehold.api.tokn", "secret"),
                // OIDC's two keys go together: an issuer left off would serve without it, unsaid.
                Bad.saying("an OIDC issuer with OIDC off", "leasehold: invalid configuration: quarkus.oidc.auth-server-url"
                        + " is set but OIDC is off: set quarkus.oidc.tenant-enabled=true to accept the issuer's tokens,"
                        + " or remove quarkus.oidc.auth-server-url", "quarkus.oidc.auth-server-url",
                        "quarkus.oidc.auth-server-url", "https://keycloak.example/realms/leasehold"),
                Bad.of("OIDC on without an issuer", "quarkus.oidc.tenant-enabled", "quarkus.oidc.tenant-enabled", "true"),
                Bad.saying("a misspelt key names the one it was meant to be", "leasehold: invalid configuration:"
                        + " leasehold.drain.concurency is not a setting (set by -Dleasehold.drain.concurency): did you"
                        + " mean leasehold.drain.concurrency?", "leasehold.drain.concurency",
                        "leasehold.drain.concurency", "4"),
                new Bad("a misspelt key in a file names its line and the one it was meant to be", Map.of(), Map.of(),
                        "# the service's settings\nleasehold.drain.concurency=4\n", "leasehold.drain.concurency",
                        List.of(), "leasehold: invalid configuration: ", "leasehold: invalid configuration:"
                        + " leasehold.drain.concurency is not a setting (set in {cwd}/config/application.properties"
                        + " line 2): did you mean leasehold.drain.concurrency?"),
                Bad.saying("a negative duration: its own rule first, its value as written",
                        "leasehold: invalid configuration: leasehold.lease.duration must be positive, got -5s",
                        "leasehold.lease.duration", "leasehold.lease.duration", "-5s"),
                Bad.saying("a duration breaking a rule between keys, both as written", "leasehold: invalid"
                        + " configuration: leasehold.lease.renew-deadline (20000ms) must be longer than"
                        + " leasehold.lease.renew-every (PT30S)", "leasehold.lease.renew-deadline",
                        "leasehold.lease.renew-deadline", "20000ms", "leasehold.lease.renew-every", "PT30S"),
                Bad.saying("a spool directory whose parent is missing (a volume not mounted)", "leasehold: invalid"
                        + " configuration: leasehold.spool.dir (/leasehold-it-no-such-mount/spool) is not usable:"
                        + " /leasehold-it-no-such-mount/spool: its parent /leasehold-it-no-such-mount does not exist"
                        + " (is a volume not mounted, or the path misspelt?); the spool directory itself is made at"
                        + " start, its parents never are", "leasehold.spool.dir",
                        "leasehold.spool.dir", "/leasehold-it-no-such-mount/spool"),
                // Not a setting's fault, but the start cannot go on: one line all the same, naming the keys.
                new Bad("a JetStream spool whose NATS cannot be reached", Map.of("leasehold.spool.kind", "jetstream",
                        "leasehold.nats.url", "nats://127.0.0.1:1", "leasehold.nats.connect-timeout", "2s"), Map.of(),
                        null, "leasehold.nats.url", List.of(), "leasehold: the JetStream spool "),
                new Bad("a JetStream spool whose NATS takes the connection and never answers, for longer than the"
                        + " schedules' first tick", Map.of("leasehold.spool.kind", "jetstream", "leasehold.nats.url",
                        "nats://127.0.0.1:" + SILENT_NATS.getLocalPort(), "leasehold.nats.connect-timeout", "3s"),
                        Map.of(), null, "leasehold.nats.url", List.of(), "leasehold: the JetStream spool "),
                Bad.of("Quarkus' own key of the wrong type, read by the check", "quarkus.thread-pool.max-threads",
                        "quarkus.thread-pool.max-threads", "abc"),
                // The check reads every key the boot will (issue 23): no Quarkus report of several lines.
                Bad.of("Quarkus' own key of the wrong type, which no rule reads", "quarkus.log.level",
                        "quarkus.log.level", "LOUD"),
                Bad.of("a byte count past a long", "leasehold.item.max-bytes",
                        "leasehold.item.max-bytes", "99999999999999999999"),
                new Bad("from the environment", Map.of(), Map.of("LEASEHOLD_DRAIN_MODE", "bogus"), null,
                        "leasehold.drain.mode", List.of()),
                new Bad("from config/application.properties", Map.of(), Map.of(),
                        "leasehold.lease.renew-deadline=20s\n", "leasehold.lease.duration", List.of()))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bad")
    void aBadSettingIsOneLineNamingItsKeyAndNothingStarts(Bad bad) throws Exception {
        Path cwd = Files.createDirectories(Path.of("target", "it-work", "config-errors-" + System.nanoTime()))
                .toAbsolutePath();
        if (bad.file() != null) {
            Files.writeString(Files.createDirectories(cwd.resolve("config")).resolve("application.properties"),
                    bad.file());
        }
        int port = FreePorts.take();
        Map<String, String> settings = new LinkedHashMap<>(bad.settings());
        settings.put("quarkus.http.port", Integer.toString(port));
        List<String> command = new ArrayList<>(bad.wrapper());
        command.addAll(PackagedArtifact.current().command(List.of("-Xmx64m", "-XX:+UseSerialGC"), settings,
                List.of()));
        Path out = cwd.resolve("stdout");
        Path err = cwd.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(new File("/dev/null"));
        // Only what the case gives counts: none of the build's own settings leak in.
        builder.environment().keySet().removeIf(k -> k.equals("NATS_URL") || k.equals("K_SINK")
                || k.startsWith("LEASEHOLD_") || k.startsWith("QUARKUS_"));
        builder.environment().putAll(bad.env());
        Process process = builder.start();
        try {
            assertTrue(process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS), bad + ": still running after "
                    + DEADLINE_SECONDS + "s");
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            assertEquals(1, process.exitValue(), bad + ":\n" + stderr + stdout);
            List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
            assertEquals(1, lines.size(), bad + ": one line on stderr, no stack trace, nothing else:\n" + stderr);
            assertTrue(lines.get(0).startsWith(bad.leads())
                    && lines.get(0).contains(bad.key()), bad + ": the line names " + bad.key() + ":\n" + stderr);
            if (bad.says() != null) {
                assertEquals(bad.says().replace("{cwd}", cwd.toString()), lines.get(0), bad + ": the line says the fix");
            }
            assertEquals("", stdout.strip(), bad + ": nothing on stdout (no log of a start)");
            assertFalse(Files.exists(cwd.resolve("spool")), bad + ": the spool was created");
            assertFalse(Files.exists(Path.of("/leasehold-it-no-such-mount")), bad + ": a missing parent was made");
            assertThrows(ConnectException.class, () -> connect(port), bad + ": something listens on " + port);
        } finally {
            process.destroyForcibly();
        }
    }

    /** docs/configuration.md's sample lines are each one of the cases above, so the page cannot drift. */
    @org.junit.jupiter.api.Test
    void theConfigurationPagesSampleLinesAreLinesTheseCasesCheck() throws IOException {
        String page = Files.readString(Path.of("docs", "configuration.md"));
        int open = page.indexOf("\n```\n", page.indexOf("### How a bad setting is told"));
        List<String> samples = page.substring(open + 5, page.indexOf("\n```", open + 5)).lines().toList();
        List<String> checked = bad().map(a -> ((Bad) a.get()[0]).says()).filter(java.util.Objects::nonNull).toList();
        assertTrue(samples.size() >= 3, "the page shows its samples: " + samples);
        for (String sample : samples) {
            assertTrue(checked.contains(sample), "a case of this test says, word for word: " + sample);
        }
    }

    /** A second instance on a port already taken: one line with the fix, before the spool or anything opens. */
    @org.junit.jupiter.api.Test
    void aPortInUseIsOneLineSayingTheFixAndNothingStarts() throws Exception {
        Path cwd = Files.createDirectories(Path.of("target", "it-work", "config-errors-port-" + System.nanoTime()))
                .toAbsolutePath();
        try (java.net.ServerSocket taken = new java.net.ServerSocket()) {
            taken.bind(new InetSocketAddress("0.0.0.0", 0));
            int port = taken.getLocalPort();
            List<String> command = PackagedArtifact.current().command(List.of("-Xmx64m", "-XX:+UseSerialGC"),
                    Map.of("quarkus.http.port", Integer.toString(port)), List.of());
            Process process = new ProcessBuilder(command).directory(cwd.toFile())
                    .redirectErrorStream(true).redirectInput(new File("/dev/null")).start();
            try {
                assertTrue(process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS), "still running");
                String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(1, process.exitValue(), said);
                assertEquals("leasehold: quarkus.http.port " + port + " is in use on 0.0.0.0 (is another instance"
                        + " already running here?): stop it, or give this one another port, e.g. -Dquarkus.http.port="
                        + (port + 1), said.strip());
                assertFalse(Files.exists(cwd.resolve("spool")), "the spool was created");
            } finally {
                process.destroyForcibly();
            }
        }
    }

    private static void connect(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        }
    }
}
