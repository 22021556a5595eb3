package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.testing.Await;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.LeaseCommandProcess.Finished;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.Reservation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator's command line of the packaged artifact, as a process on a real spool directory: every
 * {@code items} subcommand and {@code spool status}, tables and {@code --json}, help and version on every
 * level, usage errors (2), bad configuration and refusals (1), a relative spool directory from two
 * working directories. {@link ItemsCommandServiceIT} runs it beside a running service.
 */
class ItemsCommandIT {

    static final Duration DEADLINE = Duration.ofSeconds(60);
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private Path work;
    private Path spool;

    @BeforeEach
    void setUp() throws IOException {
        work = Files.createDirectories(Path.of("target", "it-work", "items-command-" + System.nanoTime()))
                .toAbsolutePath();
        spool = work.resolve("spool-dir");
    }

    /** A command on this test's spool, from {@code work}. */
    private Finished cli(String... words) {
        return cliWith(Map.of(), null, words);
    }

    private Finished cliWith(Map<String, String> config, Path stdin, String... words) {
        Map<String, String> all = new HashMap<>(Map.of("leasehold.spool.dir", spool.toString()));
        all.putAll(config);
        return LeaseCommandProcess.runWords(work, "items", all, stdin, DEADLINE, words);
    }

    static JsonNode ok(Finished run) {
        assertEquals(0, run.status(), "stdout: " + run.stdout() + " stderr: " + run.stderr());
        try {
            return JSON.readTree(run.stdout());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + run.stdout(), e);
        }
    }

    /** A log line (the NATS connection's, on the JetStream spool): stderr may hold them beside the error. */
    private static final Pattern LOG_LINE = Pattern.compile("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} [A-Z]+ +\\[leasehold].*");

    /** Exit 1 with one line on stderr (besides log lines), saying {@code what}, and nothing on stdout. */
    static void refused(Finished run, String what) {
        assertEquals(1, run.status(), "stdout: " + run.stdout() + " stderr: " + run.stderr());
        List<String> said = run.stderr().lines().filter(l -> !LOG_LINE.matcher(l).matches()).toList();
        assertEquals(1, said.size(), "one line: " + run.stderr());
        assertTrue(said.get(0).startsWith("leasehold: ") && said.get(0).contains(what), run.stderr());
        assertEquals("", run.stdout());
    }

    private static Set<String> ids(JsonNode list) {
        Set<String> ids = new TreeSet<>();
        list.forEach(item -> ids.add(item.get("id").asText()));
        return ids;
    }

    private Path file(String name, String text) throws IOException {
        return Files.writeString(work.resolve(name), text);
    }

    @Test
    void enqueueListShowCancelRetryAndPurgeOnOneSpool() throws IOException {
        Path payload = file("payload.txt", "from a file");
        JsonNode a1 = ok(cli("items", "enqueue", "--json", "--id", "a1", payload.toString()));
        assertEquals("a1", a1.get("id").asText());
        assertEquals("pending", a1.get("state").asText());
        assertEquals("from a file", Files.readString(spool.resolve("pending").resolve("a1")));

        JsonNode a2 = ok(cliWith(Map.of(), file("stdin.txt", "from stdin"), "items", "enqueue", "--json", "--id", "a2", "-"));
        assertEquals("pending", a2.get("state").asText());
        assertEquals("from stdin", Files.readString(spool.resolve("pending").resolve("a2")));
        JsonNode fresh = ok(cliWith(Map.of(), file("stdin2.txt", "no id"), "items", "enqueue", "--json"));
        String freshId = fresh.get("id").asText();
        assertTrue(ID.matcher(freshId).matches(), freshId);
        assertEquals("no id", Files.readString(spool.resolve("pending").resolve(freshId)));
        JsonNode later = ok(cli("items", "enqueue", "--json", "--id", "s1", "--delay", "1h", payload.toString()));
        assertEquals("scheduled", later.get("state").asText());
        assertTrue(Instant.parse(later.get("runAt").asText()).isAfter(Instant.now().plusSeconds(3000)), later.toString());
        refused(cli("items", "enqueue", "--id", "a1", payload.toString()), "'a1' already exists");

        JsonNode status = ok(cli("spool", "status", "--json"));
        assertEquals(3, status.get("pending").asLong(), status.toString());
        assertEquals(0, status.get("claimed").asLong(), "a scheduled item is parked, held by nobody: " + status);
        assertEquals(1, status.get("scheduled").asLong(), status.toString());
        assertEquals(0, status.get("retrying").asLong(), status.toString());
        assertEquals(0, status.get("done").asLong());
        assertEquals(0, status.get("failed").asLong());
        assertTrue(status.get("oldestPendingAgeMs").asLong() >= 0, status.toString());
        Finished statusTable = cli("spool", "status");
        assertEquals(0, statusTable.status(), statusTable.stderr());
        assertTrue(statusTable.stdout().matches(
                "(?s)pending +3\nclaimed +0\nscheduled +1\nretrying +0\ndone +0\nfailed +0\noldest pending +\\S+ ago\n"),
                statusTable.stdout());

        assertEquals(Set.of("a1", "a2", freshId), ids(ok(cli("items", "list", "--json"))));
        assertEquals(Set.of("s1"), ids(ok(cli("items", "list", "--state", "scheduled", "--json"))));
        assertEquals(1, ok(cli("items", "list", "--json", "--limit", "1")).size());
        Finished table = cli("items", "list");
        assertEquals(0, table.status(), table.stderr());
        List<String> lines = table.stdout().lines().toList();
        assertTrue(lines.get(0).matches("ID +STATE +ENQUEUED"), table.stdout());
        assertEquals(4, lines.size(), table.stdout());
        assertTrue(lines.stream().anyMatch(l -> l.matches("a1 +pending +\\S+Z")), table.stdout());
        int column = lines.get(0).indexOf("STATE");
        lines.subList(1, lines.size()).forEach(l -> assertTrue(l.substring(column).startsWith("pending "),
                "aligned: every row's state starts where its header does: " + table.stdout()));

        JsonNode shown = ok(cli("items", "show", "a1", "--json"));
        assertEquals("pending", shown.get("state").asText());
        assertTrue(shown.has("enqueuedAt"), shown.toString());
        Finished detail = cli("items", "show", "s1");
        assertTrue(detail.stdout().contains("state") && detail.stdout().contains("scheduled"), detail.stdout());
        refused(cli("items", "show", "nope"), "no item 'nope'");

        JsonNode cancelled = ok(cli("items", "cancel", "a1", "--json"));
        assertEquals("failed", cancelled.get("state").asText());
        assertEquals("cancelled", cancelled.get("reason").asText());
        assertEquals("failed", ok(cli("items", "show", "a1", "--json")).get("state").asText());
        refused(cli("items", "cancel", "a1"), "'a1' is failed");
        refused(cli("items", "cancel", "nope"), "no item 'nope'");

        JsonNode retried = ok(cli("items", "retry", "a1", "--json"));
        assertEquals("pending", retried.get("state").asText());
        refused(cli("items", "retry", "a2"), "'a2' is pending");

        for (String id : List.of("a1", "a2", freshId)) {
            ok(cli("items", "cancel", id, "--json"));
        }
        assertEquals(Set.of("a1", "a2", freshId), ids(ok(cli("items", "list", "--state", "failed", "--json"))));
        assertEquals(0, ok(cli("items", "retry", "--failed", "--reason", "no such reason", "--json")).get("retried").asLong());
        assertEquals(3, ok(cli("items", "retry", "--failed", "--reason", "cancel", "--json")).get("retried").asLong());
        assertEquals(Set.of("a1", "a2", freshId), ids(ok(cli("items", "list", "--json"))));

        refused(cli("items", "purge", "a1"), "'a1' is pending, not done or failed");
        for (String id : List.of("a1", "a2", freshId)) {
            ok(cli("items", "cancel", id, "--json"));
        }
        assertEquals(1, ok(cli("items", "purge", "a1", "--json")).get("purged").asLong());
        refused(cli("items", "show", "a1"), "no item 'a1'");
        assertFalse(Files.exists(spool.resolve("failed").resolve("a1")));
        assertEquals(0, ok(cli("items", "purge", "--state", "failed", "--older-than", "1h", "--json")).get("purged").asLong());
        Finished purged = cli("items", "purge", "--state", "failed", "--older-than", "0s");
        assertEquals(0, purged.status(), purged.stderr());
        assertEquals("purged 2\n", purged.stdout());
        assertEquals(Set.of(), ids(ok(cli("items", "list", "--state", "failed", "--json"))));
        assertEquals("pending", ok(cli("items", "enqueue", "--json", "--id", "a1", payload.toString())).get("state").asText(),
                "a purged id may be enqueued again");
        refused(cli("items", "purge", "nope"), "no item 'nope'");
    }

    /** The version the pom gives the build, read here from the pom itself. */
    private static String projectVersion() throws IOException {
        Matcher m = Pattern.compile("<artifactId>leasehold</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(m.find(), "the project's version in pom.xml");
        return m.group(1);
    }

    @Test
    void everyLevelHasHelpAndVersionWhichPrintAndStartNothing() throws IOException {
        String version = projectVersion();
        List<List<String>> levels = List.of(List.of(), List.of("items"), List.of("items", "list"),
                List.of("items", "show"), List.of("items", "retry"), List.of("items", "cancel"),
                List.of("items", "purge"), List.of("items", "enqueue"), List.of("spool"), List.of("spool", "status"),
                List.of("lease"), List.of("lease", "status"), List.of("lease", "exec"));
        for (List<String> level : levels) {
            for (String flag : List.of("--help", "--version")) {
                List<String> words = new ArrayList<>(level);
                words.add(flag);
                Finished run = LeaseCommandProcess.runWords(work, "help", Map.of(), null, DEADLINE,
                        words.toArray(String[]::new));
                assertEquals(0, run.status(), words + ": " + run.stderr());
                if (flag.equals("--version")) {
                    assertEquals("leasehold " + version + "\n", run.stdout(), words.toString());
                } else {
                    assertTrue(run.stdout().toLowerCase().contains("usage: "), words + ": " + run.stdout());
                    level.forEach(word -> assertTrue(run.stdout().contains(word), words + ": " + run.stdout()));
                }
            }
        }
        Finished help = LeaseCommandProcess.runWords(work, "help", Map.of(), null, DEADLINE, "help");
        assertEquals(0, help.status(), help.stderr());
        for (String command : List.of("items", "spool", "lease")) {
            assertTrue(help.stdout().contains(command), help.stdout());
        }
        assertTrue(help.stdout().contains("Exit status"), help.stdout());
        assertFalse(Files.exists(work.resolve("spool")), "no service started, so no ./spool made");
    }

    @Test
    void usageErrorsExitTwoWithOneLineAndAUsageHint() {
        List<List<String>> wrong = List.of(List.of("frob"), List.of("--frob"), List.of("items"), List.of("items", "frob"),
                List.of("items", "list", "--limit", "x"), List.of("items", "list", "--limit", "0"),
                List.of("items", "list", "--bogus"), List.of("items", "list", "--state", "lost"),
                List.of("items", "show"), List.of("items", "show", "a/b"), List.of("items", "cancel", "a", "b"),
                List.of("items", "retry"), List.of("items", "retry", "a1", "--failed"),
                List.of("items", "retry", "a1", "--reason", "x"), List.of("items", "purge"),
                List.of("items", "purge", "a1", "--state", "done"), List.of("items", "purge", "--state", "pending"),
                List.of("items", "purge", "--state", "done", "--older-than", "soon"),
                List.of("items", "enqueue", "--delay", "1h", "--not-before", "2030-01-01T00:00:00Z"),
                List.of("items", "enqueue", "--not-before", "tomorrow"), List.of("spool"), List.of("spool", "stats"),
                List.of("lease", "frob"));
        for (List<String> words : wrong) {
            Finished run = cli(words.toArray(String[]::new));
            assertEquals(2, run.status(), words + ": " + run.stderr());
            List<String> lines = run.stderr().lines().toList();
            assertTrue(lines.get(0).startsWith("leasehold: "), words + ": " + run.stderr());
            assertTrue(lines.get(1).startsWith("usage: "), words + ": " + run.stderr());
            if (!words.get(0).equals("lease")) {
                assertEquals(2, lines.size(), words + ": " + run.stderr());
            }
            assertEquals("", run.stdout(), words.toString());
        }
        assertFalse(Files.exists(spool), "a usage error opens no spool");
    }

    @Test
    void badConfigurationExitsOneNamingTheKey() {
        Map<String, String> bad = Map.of("leasehold.spool.kind", "tape", "leasehold.claim.lease", "0s",
                "leasehold.item.max-bytes", "lots", "leasehold.lease.bucket", "no spaces");
        bad.forEach((key, value) -> refused(cliWith(Map.of(key, value), null, "items", "list"), key));
        refused(cliWith(Map.of("leasehold.spool.kind", "jetstream"), null, "spool", "status"),
                "leasehold.spool.kind jetstream needs leasehold.nats.url");
    }

    /** The same commands on the JetStream spool of a real nats-server (started here, never 127.0.0.1:4222). */
    @Test
    void theJetStreamSpoolTakesTheSameCommands() throws IOException {
        try (NatsServer nats = NatsServer.start()) {
            Map<String, String> js = Map.of("leasehold.spool.kind", "jetstream", "leasehold.nats.url", nats.url(),
                    "leasehold.spool.jetstream.bucket", "cli-items");
            Path payload = file("js.txt", "on jetstream");
            assertEquals("pending", ok(cliWith(js, payload, "items", "enqueue", "--json", "--id", "j1")).get("state").asText());
            ok(cliWith(js, null, "items", "enqueue", "--json", "--id", "j2", payload.toString()));
            refused(cliWith(js, payload, "items", "enqueue", "--id", "j1"), "'j1' already exists");
            Finished listed = cliWith(js, null, "items", "list", "--json");
            assertEquals(Set.of("j1", "j2"), ids(ok(listed)));
            assertFalse(listed.stderr().contains("WARN"), "the command's own close is no warning: " + listed.stderr());
            JsonNode status = ok(cliWith(js, null, "spool", "status", "--json"));
            assertEquals(2, status.get("pending").asLong(), status.toString());
            assertEquals("cancelled", ok(cliWith(js, null, "items", "cancel", "j1", "--json")).get("reason").asText());
            assertEquals("failed", ok(cliWith(js, null, "items", "show", "j1", "--json")).get("state").asText());
            assertEquals(1, ok(cliWith(js, null, "items", "retry", "--failed", "--json")).get("retried").asLong());
            ok(cliWith(js, null, "items", "cancel", "j1", "--json"));
            assertEquals(1, ok(cliWith(js, null, "items", "purge", "--state", "failed", "--json")).get("purged").asLong());
            refused(cliWith(js, null, "items", "show", "j1"), "no item 'j1'");
            assertFalse(Files.exists(spool), "no spool directory for a JetStream spool");
        }
    }

    @Test
    void aMissingSpoolIsRefusedByLooksAndMadeByAnEnqueue() throws IOException {
        refused(cli("items", "list"), "no spool at " + spool);
        refused(cli("spool", "status"), "no spool at");
        refused(cli("items", "cancel", "a1"), "no spool at");
        assertFalse(Files.exists(spool), "a look makes no spool");
        Finished plain = LeaseCommandProcess.runWords(work, "items", Map.of(), null, DEADLINE, "items", "list");
        refused(plain, "no spool at " + work.resolve("spool") + " (leasehold.spool.dir not set, so ./spool");
        assertFalse(Files.exists(work.resolve("spool")));

        ok(cliWith(Map.of(), file("p.txt", "x"), "items", "enqueue", "--json", "--id", "first"));
        for (String folder : List.of("tmp", "pending", "claimed", "done", "failed")) {
            assertTrue(Files.isDirectory(spool.resolve(folder)), folder);
        }
        assertEquals(Set.of("first"), ids(ok(cli("items", "list", "--json"))));
    }

    /** A folder swapped for a link would take a purge or an enqueue elsewhere: both refuse it, nothing is touched. */
    @Test
    void aSpoolFolderThatIsASymbolicLinkIsRefusedAndNothingIsDoneThroughIt() throws IOException {
        ok(cliWith(Map.of(), file("p.txt", "x"), "items", "enqueue", "--json", "--id", "first"));
        Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("precious"), "not an item");
        Files.delete(spool.resolve("done"));
        Files.createSymbolicLink(spool.resolve("done"), elsewhere);
        refused(cli("items", "purge", "--state", "done"), "symbolic link");
        refused(cli("items", "list", "--state", "done"), "symbolic link");
        refused(cliWith(Map.of(), file("q.txt", "y"), "items", "enqueue", "--id", "second"), "symbolic link");
        assertTrue(Files.exists(elsewhere.resolve("precious")), "nothing deleted through the link");
        try (var names = Files.list(elsewhere)) {
            assertEquals(List.of("precious"), names.map(p -> p.getFileName().toString()).toList());
        }
    }

    /**
     * Typed at a terminal with stdout redirected, as a script's author tries it: stdin is still a person's
     * terminal, so it is refused at once rather than read from the keyboard unseen (script(1) gives the
     * command a terminal; the JDK's own console test needs stdout to be one too, and missed this).
     */
    @Test
    void aTerminalOnStdinIsRefusedEvenWithStdoutRedirected() throws Exception {
        List<String> command = io.leasehold.testing.PackagedArtifact.current().command(List.of("-Xmx64m"),
                Map.of("leasehold.spool.dir", spool.toString()), List.of("items", "enqueue", "--id", "typed"));
        StringBuilder line = new StringBuilder();
        for (String word : command) {
            line.append('\'').append(word.replace("'", "'\\''")).append("' ");
        }
        line.append("> ").append(work.resolve("out.json")).append(" 2> ").append(work.resolve("err.txt"));
        Process p = new ProcessBuilder("script", "-qec", line.toString(), "/dev/null").directory(work.toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE).redirectOutput(work.resolve("script.out").toFile())
                .redirectErrorStream(true).start();
        try {
            assertTrue(p.waitFor(DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS),
                    "still waiting on the terminal after " + DEADLINE);
            assertEquals(2, p.exitValue(), Files.readString(work.resolve("err.txt")));
            assertTrue(Files.readString(work.resolve("err.txt")).contains("terminal"), Files.readString(work.resolve("err.txt")));
            assertFalse(Reservation.present(spool.resolve("ids").resolve("typed")));
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * Four operators enqueue the same id at the same moment: each command has read its payload, then all
     * stdins close together, so the four race to the store. Exactly one wins; the others are told the id is
     * known (exit 1); one item is pending, with the winner's payload, and nothing is left half-made.
     */
    @Test
    void theSameIdEnqueuedByFourCommandsAtOnceIsOneItem() throws Exception {
        ok(cli("items", "enqueue", "--json", "--id", "other", file("o.txt", "o").toString())); // the spool exists
        List<LeaseCommandProcess> racers = new ArrayList<>();
        List<Path> temps = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Path temp = Files.createDirectories(work.resolve("java-tmp-" + i));
                temps.add(temp);
                LeaseCommandProcess p = LeaseCommandProcess.startWords(work, "items-race-" + i,
                        Map.of("leasehold.spool.dir", spool.toString(), "java.io.tmpdir", temp.toString()),
                        "items", "enqueue", "--json", "--id", "same", "-");
                racers.add(p);
                p.stdin().write(("payload of racer " + i).getBytes(StandardCharsets.UTF_8));
                p.stdin().flush();
            }
            for (Path temp : temps) {
                Await.until("each command has begun its copy", DEADLINE, () -> !entries(temp).isEmpty());
            }
            for (LeaseCommandProcess p : racers) {
                p.stdin().close();
            }
            List<Integer> winners = new ArrayList<>();
            for (int i = 0; i < racers.size(); i++) {
                int status = racers.get(i).awaitExit(DEADLINE);
                if (status == 0) {
                    winners.add(i);
                } else {
                    assertEquals(1, status, racers.get(i).stderr());
                    assertTrue(racers.get(i).stderr().contains("already exists"), racers.get(i).stderr());
                }
            }
            assertEquals(1, winners.size(), "exactly one enqueue wins: " + winners);
            assertEquals("payload of racer " + winners.get(0), Files.readString(spool.resolve("pending").resolve("same")));
            assertEquals(Set.of("other", "same"), ids(ok(cli("items", "list", "--json"))));
            try (var left = Files.list(spool.resolve("tmp"))) {
                assertEquals(List.of(), left.toList(), "no upload left half-made");
            }
        } finally {
            racers.forEach(LeaseCommandProcess::close);
        }
    }

    /** No reservation of {@code id} and no file begun in the spool's tmp/ (which only a service's housekeeping removes). */
    private void assertNothingKept(String id) throws IOException {
        assertFalse(Reservation.present(spool.resolve("ids").resolve(id)), "ids/" + id + " left reserved");
        if (Files.isDirectory(spool.resolve("tmp"))) {
            try (var left = Files.list(spool.resolve("tmp"))) {
                assertEquals(List.of(), left.toList(), "tmp/ holds nothing");
            }
        }
    }

    /** Ctrl-C while the payload is still being typed or piped: the store was not called yet, so nothing is left. */
    @Test
    void anInterruptWhileStdinIsReadLeavesNothing() throws IOException {
        ok(cli("items", "enqueue", "--json", "--id", "other", file("o.txt", "o").toString())); // the spool exists
        Path temp = Files.createDirectories(work.resolve("java-tmp"));
        try (LeaseCommandProcess p = LeaseCommandProcess.startWords(work, "items-sigint",
                Map.of("leasehold.spool.dir", spool.toString(), "java.io.tmpdir", temp.toString()),
                "items", "enqueue", "--id", "typed", "-")) {
            p.stdin().write("half a payload".getBytes(StandardCharsets.UTF_8));
            p.stdin().flush();
            // Reading stdin by now: its copy begun outside the spool (or, as before, the store's own in tmp/).
            Await.until("the command reads stdin", DEADLINE, () -> !entries(temp).isEmpty()
                    || !entries(spool.resolve("tmp")).isEmpty());
            p.signal("INT");
            assertEquals(130, p.awaitExit(DEADLINE), p.stderr());
        }
        assertNothingKept("typed");
        assertEquals(List.of(), entries(temp), "the copy is removed on Ctrl-C too");
        assertEquals("pending", ok(cliWith(Map.of(), file("t.txt", "typed"), "items", "enqueue", "--json", "--id", "typed"))
                .get("state").asText(), "the id is free");
    }

    private static List<Path> entries(Path dir) {
        try (var list = Files.list(dir)) {
            return list.toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** -D words after -jar reach main as words: they are settings for the command, not a service on ./spool. */
    @Test
    void settingsAfterTheJarAreTheCommandsOwn() throws IOException {
        ok(cli("items", "enqueue", "--json", "--id", "d1", file("d.txt", "d").toString()));
        Finished run = LeaseCommandProcess.runWords(work, "items", Map.of(), null, DEADLINE,
                "-Dleasehold.spool.dir=" + spool, "items", "list", "--json");
        assertEquals(Set.of("d1"), ids(ok(run)));
        assertFalse(Files.exists(work.resolve("spool")), "no service started on ./spool");
    }

    @Test
    void aRelativeSpoolDirectoryIsTheWorkingDirectorysOwn() throws IOException {
        Path one = Files.createDirectories(work.resolve("one"));
        Path two = Files.createDirectories(work.resolve("two"));
        Map<String, String> relative = Map.of("leasehold.spool.dir", "rel/spool");
        Path payload = file("p.txt", "relative");
        refused(LeaseCommandProcess.runWords(one, "items", relative, payload, DEADLINE, "items", "enqueue", "--id", "r0"),
                "leasehold.spool.dir (rel/spool) is not usable: " + one.resolve("rel/spool") + ": its parent " + one.resolve("rel") + " does not exist (is a volume not mounted,"
                        + " or the path misspelt?)");
        Files.createDirectories(one.resolve("rel"));
        ok(LeaseCommandProcess.runWords(one, "items", relative, payload, DEADLINE, "items", "enqueue", "--json", "--id", "r1"));
        assertEquals("relative", Files.readString(one.resolve("rel/spool/pending/r1")));
        assertEquals(Set.of("r1"), ids(ok(LeaseCommandProcess.runWords(one, "items", relative, null, DEADLINE,
                "items", "list", "--json"))));
        refused(LeaseCommandProcess.runWords(two, "items", relative, null, DEADLINE, "items", "list"),
                "no spool at " + two.resolve("rel/spool"));
    }

    @Test
    void aPayloadOverTheLimitIsRefusedAndNothingIsKept() throws IOException {
        Path big = file("big.txt", "x".repeat(11));
        refused(cliWith(Map.of("leasehold.item.max-bytes", "10"), null, "items", "enqueue", "--id", "big", big.toString()),
                "payload larger than 10 bytes (leasehold.item.max-bytes)");
        assertFalse(Files.exists(spool.resolve("pending").resolve("big")));
        assertNothingKept("big");
        assertEquals("big", ok(cli("items", "enqueue", "--json", "--id", "big", big.toString())).get("id").asText(),
                "the refused id is free");
        assertEquals("exact", ok(cliWith(Map.of("leasehold.item.max-bytes", "10"), file("ten.txt", "x".repeat(10)),
                "items", "enqueue", "--json", "--id", "exact")).get("id").asText());
        refused(cli("items", "enqueue", "--id", "nofile", work.resolve("missing.txt").toString()), "no such file");
    }
}
