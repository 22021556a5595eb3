package io.leasehold.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.command.BuildVersion;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's parsing in-process: what reaches picocli, help and version, usage errors. None reads a spool. */
class OperatorCliTest {

    private record Said(int status, String out, String err) {
    }

    private static Said run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = OperatorCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]));
        return new Said(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void leadingSettingsAreSetAsPropertiesAndTheRestIsTheCommand() {
        String key = "leasehold.test.setting." + System.nanoTime();
        try {
            assertArrayEquals(new String[] {"items", "list", "-Dlater=x"},
                    OperatorCli.settings("-D" + key + "=a=b", "-D" + key + ".bare", "items", "list", "-Dlater=x"));
            assertEquals("a=b", System.getProperty(key));
            assertEquals("", System.getProperty(key + ".bare"));
            assertNull(System.getProperty("later"), "only leading words are settings");
            assertArrayEquals(new String[0], OperatorCli.settings("-D" + key + "=c"), "no words left: the service");
            assertEquals("c", System.getProperty(key));
            assertArrayEquals(new String[0], OperatorCli.settings());
            for (String first : List.of("items", "spool", "lease", "help", "--help", "-h", "--version", "-V", "itmes", "--x")) {
                assertArrayEquals(new String[] {first, "list"}, OperatorCli.settings(first, "list"), first);
            }
        } finally {
            System.clearProperty(key);
            System.clearProperty(key + ".bare");
        }
    }

    @Test
    void aJvmOptionAfterTheJarIsAUsageError() {
        Said said = run("-Xmx1g", "items", "list");
        assertEquals(2, said.status());
        assertEquals(List.of("leasehold: JVM options go before -jar: java -Xmx1g -jar quarkus-run.jar ..."),
                said.err().lines().toList());
        assertEquals("", said.out());
    }

    /** The binary's image reads no runtime options, so a -X word reaches main: it says where the heap is set. */
    @Test
    void aJvmOptionGivenToTheNativeBinaryIsAUsageErrorSayingWhereTheHeapIsSet() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = OperatorCli.run(new String[] {"-XX:+UseSerialGC", "items", "list"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                InputStream.nullInputStream(), false, true);
        assertEquals(2, status);
        assertEquals(List.of("leasehold: the native binary reads no JVM options (-XX:+UseSerialGC); its heap is a share"
                + " of the memory it is given, or set when it is built: -R:MaxHeapSize=... (docs/native.md)"),
                err.toString(StandardCharsets.UTF_8).lines().toList());
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpAndVersionPrintToStdoutAndExitZero() {
        Said help = run("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: java -jar quarkus-run.jar [-hV] [COMMAND]"), help.out());
        assertEquals("", help.err());
        assertEquals(help.out(), run("help").out(), "help is --help");
        Said version = run("items", "list", "--version");
        assertEquals(0, version.status());
        assertEquals(BuildVersion.line() + "\n", version.out());
        Said sub = run("items", "purge", "--help");
        assertTrue(sub.out().startsWith("Usage: java -jar quarkus-run.jar items purge"), sub.out());
        assertTrue(sub.out().contains("--older-than=DURATION"), sub.out());
        assertTrue(sub.out().contains("Exit status"), "every command says its exit statuses: " + sub.out());
    }

    @Test
    void aMisspeltCommandNamesTheCommandsThereAndTheClosestOne() {
        Said lst = run("items", "lst");
        assertEquals(2, lst.status());
        assertEquals("leasehold: 'lst' is not a command of items (list, show, enqueue, cancel, retry, purge): did you"
                + " mean list?", lst.err().lines().findFirst().orElse(""));
        assertEquals("leasehold: 'itms' is not a command (items, spool, schedules, drain, lease): did you mean items?",
                run("itms").err().lines().findFirst().orElse(""));
        assertEquals("", lst.out());
    }

    @Test
    void aMisspeltOptionNamesTheClosestOne() {
        Said stat = run("items", "list", "--stat=done");
        assertEquals(2, stat.status());
        assertEquals("leasehold: Unknown option: '--stat=done': did you mean --state?",
                stat.err().lines().findFirst().orElse(""));
    }

    @Test
    void usageErrorsAreOneLineAndAHintOnStderrWithStatusTwo() {
        Said bad = run("items", "list", "--limit", "x");
        assertEquals(2, bad.status());
        assertEquals("", bad.out());
        assertEquals(List.of("leasehold: Invalid value for option '--limit': 'x' is not an int",
                "usage: java -jar quarkus-run.jar items list [-hV] [--json] [--after=CURSOR] [--limit=N] [--search=TEXT] [--state=STATE] "
                        + "(java -jar quarkus-run.jar items list --help for more)"),
                bad.err().lines().toList());
        for (String[] words : List.of(new String[] {"items"}, new String[] {"nope"}, new String[] {"items", "retry"},
                new String[] {"items", "show", "../x"}, new String[] {"items", "purge", "--older-than", "1h"},
                new String[] {"items", "enqueue", "--delay", "-5s"})) {
            Said said = run(words);
            assertEquals(2, said.status(), String.join(" ", words) + ": " + said.err());
            assertEquals(2, said.err().lines().count(), said.err());
        }
        assertTrue(run("items", "enqueue", "--delay", "-5s").err().startsWith("leasehold: --delay must be a duration"),
                "the API's message, with the option's name");
        assertTrue(run("items", "purge", "--older-than", "1h").err().startsWith("leasehold: give one ID or --state"));
    }

    @Test
    void anAtWordIsAWordNotAFileToRead(@TempDir Path dir) throws IOException {
        Path words = Files.writeString(dir.resolve("ex"), "some-id\n");
        Said said = run("items", "show", "@" + words);
        assertEquals(2, said.status(), said.err());
        assertTrue(said.err().startsWith("leasehold: Invalid value for positional parameter at index 0 (ID): invalid item id '@"
                + words + "'"), said.err());
    }

    @Test
    void leaseKeepsItsOwnParserAndGainsVersion() {
        Said version = run("lease", "--version");
        assertEquals(0, version.status());
        assertEquals(BuildVersion.line() + "\n", version.out());
        assertEquals(0, run("lease", "exec", "--help").status());
        assertEquals(2, run("lease", "status", "x").status());
    }
}
