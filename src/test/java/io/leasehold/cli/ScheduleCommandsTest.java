package io.leasehold.cli;

import static io.leasehold.cli.Said.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.directory.DirectoryScheduleBook;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.spool.ScheduleBook;




import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code schedules list|trigger|pause|resume} in-process, on a spool directory and schedules of the test's own. */
class ScheduleCommandsTest {

    @org.junit.jupiter.api.extension.RegisterExtension
    final CliProperties properties = new CliProperties();


    private static final List<String> KEYS = List.of("leasehold.spool.dir", "leasehold.schedules.nightly.cron",
            "leasehold.schedules.nightly.time-zone", "leasehold.schedules.fast.every");

    @TempDir
    Path dir;
    private SpoolLayout layout;

    @BeforeEach
    void configure() throws Exception {
        layout = new SpoolLayout(dir.resolve("spool"));
        layout.createFolders();
        System.setProperty("leasehold.spool.dir", layout.root().toString());
        System.setProperty("leasehold.schedules.nightly.cron", "0 0 2 * * ?");
        System.setProperty("leasehold.schedules.nightly.time-zone", "Europe/Berlin");
        System.setProperty("leasehold.schedules.fast.every", "10s");
    }

    @AfterEach
    void clear() {
        KEYS.forEach(System::clearProperty);
    }


    @Test
    void listShowsEachSchedulesRuleNextFireTimeAndLastItemAndNeverFires() throws Exception {
        Instant fired = Instant.parse("2026-12-05T01:00:00Z");
        new DirectoryScheduleBook(layout).advance("nightly", new ScheduleBook.Mark(fired,
                new ScheduleBook.Fired(fired, "nightly.20261205T010000Z", 4, "a", fired)));
        Said list = run("schedules", "list");
        assertEquals(0, list.status(), list.err());
        List<String> lines = list.out().lines().toList();
        assertEquals(3, lines.size(), list.out());
        assertTrue(lines.get(0).matches("NAME +RULE +NEXT +LAST ITEM +STATE +PAUSED +LATE"), lines.get(0));
        assertTrue(lines.get(1).matches("fast +every 10s +\\S+Z +- +- +false +no"), lines.get(1));
        // 02:00 in Berlin: 01:00 UTC in winter, 00:00 in summer (the next fire time is the real clock's).
        assertTrue(lines.get(2).matches("nightly +cron 0 0 2 \\* \\* \\? Europe/Berlin +\\S+T0[01]:00:00Z +nightly.20261205T010000Z"
                + " +purged +false +late"), lines.get(2)); // its item never made here, and its next fire time long past
        Said json = run("schedules", "list", "--json");
        assertTrue(json.out().contains("\"lastFired\":{\"fireTime\":\"2026-12-05T01:00:00Z\",\"id\":\"nightly.20261205T010000Z\","
                + "\"state\":\"purged\",\"epoch\":4,\"by\":\"a\"}"), json.out());
        assertEquals("[]", run("items", "list", "--json").out().strip(), "a look fires nothing");
    }

    @Test
    void triggerMakesOneItemNowAndPauseAndResumeAreKeptInTheSpool() {
        Said trigger = run("schedules", "trigger", "fast");
        assertEquals(0, trigger.status(), trigger.err());
        assertTrue(trigger.out().matches("fast\\.manual-\\d{8}T\\d{6}\\.\\d{3}Z pending\\R"), trigger.out());
        String id = trigger.out().split(" ")[0];
        assertEquals(0, run("items", "show", id).status());

        Said pause = run("schedules", "pause", "fast", "--json");
        assertEquals(0, pause.status(), pause.err());
        assertTrue(pause.out().contains("\"paused\":true") && pause.out().contains("\"by\":\"command line\""), pause.out());
        assertTrue(run("schedules", "list").out().lines().anyMatch(l -> l.startsWith("fast ") && l.contains(" true ")));
        assertEquals(0, run("schedules", "resume", "fast").status());
        assertTrue(run("schedules", "list").out().lines().anyMatch(l -> l.startsWith("fast ") && l.contains(" false ")));
    }

    @Test
    void anUnknownScheduleIsRefusedNamingTheConfiguredOnesAndNoSubcommandIsAUsageError() {
        Said unknown = run("schedules", "pause", "weekly");
        assertEquals(1, unknown.status());
        assertEquals("leasehold: no schedule 'weekly'; configured: fast, nightly", unknown.err().strip());
        Said bare = run("schedules");
        assertEquals(2, bare.status());
        assertTrue(bare.err().startsWith("leasehold: schedules needs a subcommand: list, trigger, pause or resume"), bare.err());
    }
}
