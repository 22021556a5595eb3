package io.leasehold.cli;

import static io.leasehold.cli.Said.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;



import java.io.IOException;

import java.net.InetAddress;
import java.net.ServerSocket;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands in-process on a spool directory of the test's own (leasehold.spool.dir as a system property). */
class SpoolCommandsTest {

    @org.junit.jupiter.api.extension.RegisterExtension
    final CliProperties properties = new CliProperties();


    @TempDir
    Path dir;

    private Path spool;

    @BeforeEach
    void setSpool() {
        spool = dir.resolve("spool");
        System.setProperty("leasehold.spool.dir", spool.toString());
    }

    @AfterEach
    void clearSpool() {
        System.clearProperty("leasehold.spool.dir");
    }



    @Test
    void aTerminalIsReadOnlyWhenAskedForWithADash() throws IOException {
        Said refused = run("typed", true, "items", "enqueue", "--id", "t1");
        assertEquals(2, refused.status(), refused.err());
        assertTrue(refused.err().startsWith("leasehold: stdin is a terminal: give FILE, or - to type the payload\n"),
                refused.err());
        Said dash = run("typed", true, "items", "enqueue", "--id", "t1", "-");
        assertEquals(0, dash.status(), dash.err());
        assertEquals("typed", Files.readString(spool.resolve("pending").resolve("t1")));
        Said piped = run("piped", false, "items", "enqueue", "--id", "t2");
        assertEquals(0, piped.status(), piped.err());
        assertEquals("piped", Files.readString(spool.resolve("pending").resolve("t2")));
    }

    @Test
    void aPurgeFurtherBackThanAnInstantGoesPurgesNothing() {
        assertEquals(0, run("x", false, "items", "enqueue", "--id", "p1").status());
        assertEquals(0, run("items", "cancel", "p1").status());
        Said purged = run("items", "purge", "--state", "failed", "--older-than", "99999999999999d");
        assertEquals(0, purged.status(), purged.err());
        assertEquals("purged 0\n", purged.out());
        assertEquals("purged 1\n", run("items", "purge", "--state", "failed", "--older-than", "0s").out());
    }

    /** items purge ID takes ItemStore.purgeSettled, as POST /items/{id}/purge: a pending item is refused, saying what to do. */
    @Test
    void aPurgeOfOneItemRefusesAPendingOneNamingTheCancel() {
        assertEquals(0, run("x", false, "items", "enqueue", "--id", "p2").status());
        Said refused = run("items", "purge", "p2");
        assertTrue(refused.status() != 0, refused.out());
        assertTrue(refused.err().contains("'p2' is pending, not done or failed: cancel it first (DELETE /items/p2, or"
                + " items cancel p2), then purge it"), refused.err());
        assertEquals(0, run("items", "cancel", "p2").status());
        assertEquals("purged 1\n", run("items", "purge", "p2").out());
        assertFalse(Files.exists(spool.resolve("failed").resolve("p2")));
    }

    @Test
    void spoolStatusShowsTheEntriesLeftAlone() throws IOException {
        assertEquals(0, run("x", false, "items", "enqueue", "--id", "real").status());
        Files.createSymbolicLink(spool.resolve("pending").resolve("link"), dir.resolve("elsewhere"));
        Files.writeString(spool.resolve("pending").resolve(".bad~name"), "junk");
        Said table = run("spool", "status");
        assertEquals(0, table.status(), table.err());
        List<String> ignored = table.out().lines().filter(l -> l.startsWith("ignored")).toList();
        assertEquals(2, ignored.size(), table.out());
        assertTrue(ignored.stream().anyMatch(l -> l.matches("ignored +pending/\\.bad~name: not a valid item id")), table.out());
        assertTrue(ignored.stream().anyMatch(l -> l.matches("ignored +pending/link: .+")), table.out());
        Said json = run("spool", "status", "--json");
        assertTrue(json.out().contains("\"ignored\":[{"), json.out());
        assertTrue(json.out().contains("\"name\":\"link\""), json.out());
        assertTrue(table.out().startsWith("pending         1\n"), "junk is not counted: " + table.out());
    }

    /** Each failure's line says what failed and where, not only the JDK's or the client's words. */
    @Test
    void failuresSayWhatAndWhere() throws IOException {
        Path directory = Files.createDirectories(dir.resolve("a-directory"));
        Said isDirectory = run("items", "enqueue", "--id", "d", directory.toString());
        assertEquals(List.of("leasehold: Is a directory: " + directory), isDirectory.err().lines().toList());
        Path missing = dir.resolve("missing");
        assertEquals(List.of("leasehold: no such file: " + missing),
                run("items", "enqueue", "--id", "m", missing.toString()).err().lines().toList());
        Path notDirectory = Files.writeString(dir.resolve("plain"), "x");
        assertEquals(List.of("leasehold: Not a directory: " + notDirectory.resolve("f")),
                run("items", "enqueue", "--id", "n", notDirectory.resolve("f").toString()).err().lines().toList());

        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("gone"));
        System.setProperty("leasehold.spool.dir", dangling.toString());
        Said link = run("x", false, "items", "enqueue", "--id", "l");
        assertEquals(1, link.status(), link.err());
        assertTrue(link.err().startsWith("leasehold: ") && link.err().contains(dangling.toString())
                && link.err().strip().length() > ("leasehold: " + dangling).length(), link.err());
    }

    @Test
    void aBusThatCannotBeReachedIsNamedWithItsKey() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        System.setProperty("leasehold.spool.kind", "jetstream");
        System.setProperty("leasehold.nats.connect-timeout", "1s");
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            for (int port : List.of(closed, silent.getLocalPort())) {
                String url = "nats://127.0.0.1:" + port;
                System.setProperty("leasehold.nats.url", url);
                Said said = run("items", "list");
                assertEquals(1, said.status(), said.err());
                List<String> lines = said.err().lines().filter(l -> l.startsWith("leasehold: ")).toList();
                assertEquals(1, lines.size(), said.err());
                assertTrue(lines.get(0).startsWith("leasehold: NATS at " + url + " (leasehold.nats.url) cannot be reached: "),
                        said.err());
                assertFalse(lines.get(0).contains("null"), said.err());
            }
        } finally {
            System.clearProperty("leasehold.spool.kind");
            System.clearProperty("leasehold.nats.connect-timeout");
            System.clearProperty("leasehold.nats.url");
        }
    }

    @Test
    void anEnqueueOfAFileThatCannotBeReadMakesNoSpool() {
        Said said = run("items", "enqueue", "--id", "x", dir.resolve("nonexistent").toString());
        assertEquals(1, said.status(), said.err());
        assertFalse(Files.exists(spool), "no spool folders made for a payload never read");
    }
}
