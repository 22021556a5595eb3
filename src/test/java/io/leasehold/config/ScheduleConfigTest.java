package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Misfire;
import io.leasehold.core.RecurringSchedule;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** A bad schedule stops the start with one line naming its key and what it must be. */
class ScheduleConfigTest {

    private static String refusal(Map<String, String> properties) {
        return assertThrows(ConfigCheck.InvalidConfigException.class, () -> ConfigCheck.require(Mapped.of(properties)))
                .getMessage();
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "leasehold.schedules.nightly.cron|0 0 2 * *|leasehold.schedules.nightly.cron must be a cron expression with seconds",
        "leasehold.schedules.nightly.cron|0 0 2 * * MON|leasehold.schedules.nightly.cron must be a cron expression with seconds",
        "leasehold.schedules.nightly.every|500ms|leasehold.schedules.nightly.every must be a whole number of seconds, at least 1s, got 500ms",
        "leasehold.schedules.nightly.every|1500ms|leasehold.schedules.nightly.every must be a whole number of seconds, at least 1s, got 1500ms",
        "leasehold.schedules.-bad.every|1m|leasehold.schedules.\"-bad\" is not a schedule name: a name must match [A-Za-z0-9][A-Za-z0-9_-]{0,63}",
        "leasehold.schedules.\"a.b\".every|1m|leasehold.schedules.\"a.b\" is not a schedule name",
    })
    void aBadScheduleIsRefusedInOneLineNamingItsKey(String key, String value, String said) {
        String message = refusal(Map.of(key, value));
        assertTrue(message.startsWith("invalid configuration: " + said), message);
        assertEquals(1, message.lines().count(), message);
    }

    @Test
    void aCronThatNeverFiresAgainAndAHugeCatchUpAreRefusedInOneLineAndAPeriodOfCenturiesIsNoCrash() {
        String message = refusal(Map.of("leasehold.schedules.a.cron", "0 0 0 30 2 ?",
                "leasehold.schedules.b.every", "110000d", "leasehold.schedules.c.every", "1h",
                "leasehold.schedules.c.max-catch-up", "10001"));
        assertTrue(message.contains("leasehold.schedules.a.cron never fires (a date that does not exist"), message);
        assertTrue(message.contains("leasehold.schedules.c.max-catch-up must be 1 to 10000, got 10001"), message);
        assertTrue(!message.contains("\"b\""), "every 110000d is a period like any other: " + message);
        assertEquals(1, message.lines().count(), message);
    }

    @Test
    void aTimeZoneOnAnEverySchedulesIsRefusedItsFireTimesAreInstants() {
        assertTrue(refusal(Map.of("leasehold.schedules.n.every", "1h", "leasehold.schedules.n.time-zone", "Europe/Berlin"))
                .contains("leasehold.schedules.n.time-zone applies to a cron schedule only"));
    }

    @Test
    void bothOrNeitherOfCronAndEveryIsRefusedNamingBoth() {
        assertTrue(refusal(Map.of("leasehold.schedules.n.cron", "0 0 2 * * ?", "leasehold.schedules.n.every", "1h"))
                .contains("leasehold.schedules.n.cron or leasehold.schedules.n.every must be set, exactly one of the two, got both"));
        assertTrue(refusal(Map.of("leasehold.schedules.n.payload", "x"))
                .contains("leasehold.schedules.n.cron or leasehold.schedules.n.every must be set, exactly one of the two, got neither"));
    }

    @Test
    void anUnknownZoneAMisfireAndACatchUpUnderOneAreRefusedTogether() {
        String message = refusal(Map.of("leasehold.schedules.a.cron", "0 0 2 * * ?", "leasehold.schedules.a.time-zone", "Europe/Atlantis",
                "leasehold.schedules.b.every", "1h", "leasehold.schedules.b.misfire", "some",
                "leasehold.schedules.c.every", "1h", "leasehold.schedules.c.max-catch-up", "0"));
        assertTrue(message.contains("leasehold.schedules.a.time-zone must be a time zone such as UTC or Europe/Berlin, got 'Europe/Atlantis'"), message);
        assertTrue(message.contains("leasehold.schedules.b.misfire must be 'latest', 'all' or 'skip', got 'some'"), message);
        assertTrue(message.contains("leasehold.schedules.c.max-catch-up must be 1 to 10000, got 0"), message);
    }

    @Test
    void aPayloadLargerThanItemMaxBytesIsRefusedAtStartNotAtEachFireTime() {
        assertTrue(refusal(Map.of("leasehold.schedules.n.every", "1h", "leasehold.schedules.n.payload", "x".repeat(11),
                "leasehold.item.max-bytes", "10")).contains("leasehold.schedules.n.payload is 11 bytes, more than "
                        + "leasehold.item.max-bytes (10)"));
    }

    @Test
    void aMisspeltKeyOfAScheduleStopsTheStartNamingTheKeyMeant() {
        RuntimeException refused = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> MappedConfig.build(Mapped.builder(Map.of("leasehold.schedules.nightly.corn", "0 0 2 * * ?"))));
        assertTrue(refused.getMessage().startsWith("invalid configuration: leasehold.schedules.nightly.corn is not a setting")
                && refused.getMessage().endsWith("did you mean leasehold.schedules.nightly.cron?"), refused.getMessage());
    }

    @Test
    void aScheduleIsReadFromEnvironmentVariablesToo() {
        var env = new io.smallrye.config.EnvConfigSource(Map.of("LEASEHOLD_SCHEDULES_NIGHTLY_CRON", "0 0 2 * * ?",
                "LEASEHOLD_SCHEDULES_NIGHTLY_TIME_ZONE", "Europe/Berlin", "LEASEHOLD_SCHEDULES_SYNC5M_EVERY", "5m"), 300);
        LeaseholdConfig config = MappedConfig.build(Mapped.builder(Map.of()).withSources(env))
                .getConfigMapping(LeaseholdConfig.class);
        List<RecurringSchedule> all = ConfigRecords.schedules(config);
        assertEquals(List.of("nightly", "sync5m"), all.stream().map(RecurringSchedule::name).toList());
        assertEquals("Europe/Berlin", all.get(0).timeZone());
    }

    @Test
    void aScheduleVariableWithAnUnknownSettingOrAnUnderscoreInItsNameStopsTheStart() {
        var env = new io.smallrye.config.EnvConfigSource(Map.of("LEASEHOLD_SCHEDULES_NIGHTLY_CORN", "0 0 2 * * ?",
                "LEASEHOLD_SCHEDULES_MY_JOB_EVERY", "5m", "LEASEHOLD_SCHEDULES_SYNC_EVERY", "5m"), 300);
        var built = MappedConfig.build(Mapped.builder(Map.of()).withSources(env));
        String message = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(built.getConfigMapping(LeaseholdConfig.class), built)).getMessage();
        assertTrue(message.contains("LEASEHOLD_SCHEDULES_NIGHTLY_CORN is no schedule's setting: a schedule's variable is"
                + " LEASEHOLD_SCHEDULES_<NAME> followed by one of _CRON, _EVERY"), message);
        assertTrue(message.contains("LEASEHOLD_SCHEDULES_MY_JOB_EVERY names a schedule with a '_' in it, which an environment"
                + " variable cannot tell from a '.' or a '-': give this schedule as leasehold.schedules.<name>.every in"
                + " application.properties or with -D"), message);
        assertTrue(!message.contains("SYNC_EVERY"), message);
        assertEquals(1, message.lines().count(), message);
    }

    @Test
    void goodSchedulesPassAndAreReadWithTheirDefaults() {
        LeaseholdConfig config = Mapped.of(Map.of("leasehold.schedules.nightly.cron", "0 0 2 * * ?",
                "leasehold.schedules.nightly.time-zone", "Europe/Berlin", "leasehold.schedules.sync-5m.every", "5m",
                "leasehold.schedules.sync-5m.misfire", "all", "leasehold.schedules.sync-5m.payload", "{\"full\":false}"));
        assertDoesNotThrow(() -> ConfigCheck.require(config));
        List<RecurringSchedule> all = ConfigRecords.schedules(config);
        assertEquals(List.of("nightly", "sync-5m"), all.stream().map(RecurringSchedule::name).toList());
        RecurringSchedule nightly = all.get(0);
        assertEquals("cron", nightly.rule());
        assertEquals("Europe/Berlin", nightly.timeZone());
        assertEquals(Misfire.LATEST, nightly.misfire());
        assertEquals("", nightly.payload());
        RecurringSchedule sync = all.get(1);
        assertEquals("5m", sync.expression());
        assertEquals(Misfire.ALL, sync.misfire());
        assertEquals(100, sync.maxCatchUp());
        assertEquals("{\"full\":false}", sync.payload());
    }
}
