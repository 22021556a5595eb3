package io.leasehold.cli;

import static io.leasehold.cli.Said.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.directory.DirectoryDrainSwitch;
import io.leasehold.directory.SpoolLayout;




import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code drain status|pause|resume} in-process on a spool directory: the same record the service reads. */
class DrainCommandsTest {

    @org.junit.jupiter.api.extension.RegisterExtension
    final CliProperties properties = new CliProperties();


    @TempDir
    Path dir;
    private SpoolLayout layout;

    @BeforeEach
    void configure() throws Exception {
        layout = new SpoolLayout(dir.resolve("spool"));
        layout.createFolders();
        System.setProperty("leasehold.spool.dir", layout.root().toString());
    }

    @AfterEach
    void clear() {
        System.clearProperty("leasehold.spool.dir");
    }


    @Test
    void aDrainNeverPausedSaysSoAndAPauseIsKeptInTheSpoolForTheService() throws Exception {
        Said never = run("drain", "status");
        assertEquals(0, never.status(), never.err());
        assertTrue(never.out().matches("paused +false\\R"), never.out());
        assertEquals("{\"paused\":false}", run("drain", "status", "--json").out().strip());

        Said pause = run("drain", "pause");
        assertEquals(0, pause.status(), pause.err());
        assertTrue(pause.out().matches("(?s)paused +true\\Rsince +\\S+Z\\Rby +command line on \\S+ pid \\d+\\R"), pause.out());
        assertTrue(new DirectoryDrainSwitch(layout).pause().orElseThrow().paused(), "what a service reads");
        String since = pause.out().lines().toList().get(1);
        assertEquals(since, run("drain", "pause").out().lines().toList().get(1), "a second pause changes nothing");

        Said resume = run("drain", "resume", "--json");
        assertEquals(0, resume.status(), resume.err());
        assertTrue(resume.out().matches("\\{\"paused\":false,\"since\":\"\\S+Z\",\"by\":\"command line on \\S+ pid \\d+\"}\\R"),
                resume.out());
        assertTrue(run("drain", "status").out().startsWith("paused   false"), run("drain", "status").out());
    }

    @Test
    void aMissingSpoolIsRefusedNamingTheKeyAndNothingIsMade() {
        System.setProperty("leasehold.spool.dir", dir.resolve("nowhere").toString());
        Said pause = run("drain", "pause");
        assertEquals(1, pause.status());
        assertTrue(pause.err().contains("leasehold.spool.dir"), pause.err());
        assertTrue(!dir.resolve("nowhere").toFile().exists(), "no spool made by a pause");
    }

    @Test
    void drainAloneIsAUsageErrorNamingItsSubcommands() {
        Said bare = run("drain");
        assertEquals(2, bare.status());
        assertTrue(bare.err().contains("drain needs a subcommand: status, pause or resume"), bare.err());
    }
}
