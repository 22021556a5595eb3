package io.leasehold.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EveryTest {

    private final Every fiveSeconds = new Every(Duration.ofSeconds(5));

    @Test
    void fireTimesAreTheMultiplesOfThePeriodSinceTheEpochWhateverTheInstantAsked() {
        assertEquals(Instant.parse("2026-12-07T10:00:05Z"), fiveSeconds.after(Instant.parse("2026-12-07T10:00:00Z")).orElseThrow());
        assertEquals(Instant.parse("2026-12-07T10:00:05Z"), fiveSeconds.after(Instant.parse("2026-12-07T10:00:04.999Z")).orElseThrow());
        assertEquals(Instant.parse("2026-12-07T10:00:00Z"), fiveSeconds.before(Instant.parse("2026-12-07T10:00:00.001Z")).orElseThrow());
        assertEquals(Instant.parse("2026-12-07T09:59:55Z"), fiveSeconds.before(Instant.parse("2026-12-07T10:00:00Z")).orElseThrow());
        assertEquals(Instant.parse("2026-12-07T10:00:00Z"), fiveSeconds.atOrBefore(Instant.parse("2026-12-07T10:00:00Z")).orElseThrow());
        assertEquals(Instant.parse("2026-12-07T10:00:00Z"), fiveSeconds.atOrBefore(Instant.parse("2026-12-07T10:00:04.999Z")).orElseThrow());
    }

    @Test
    void aPeriodNotDividingADayStillGivesTheSameTimesOnEveryInstance() {
        Every seven = new Every(Duration.ofSeconds(7));
        Instant t = seven.after(Instant.parse("2026-12-07T10:00:00Z")).orElseThrow();
        assertEquals(0, t.getEpochSecond() % 7);
        assertEquals(t, seven.after(t.minusMillis(1)).orElseThrow());
        assertEquals(t.plusSeconds(7), seven.after(t).orElseThrow());
    }

    @Test
    void aPeriodUnderOneSecondOrNotWholeSecondsIsRefusedNamingTheKey() {
        InvalidSetting short_ = assertThrows(InvalidSetting.class, () -> Every.of("leasehold.schedules.x.every", Duration.ofMillis(500)));
        assertEquals("leasehold.schedules.x.every must be a whole number of seconds, at least 1s, got 500ms", short_.getMessage());
        assertThrows(InvalidSetting.class, () -> Every.of("k", Duration.ofMillis(1500)));
        assertThrows(InvalidSetting.class, () -> Every.of("k", Duration.ZERO));
        assertThrows(InvalidSetting.class, () -> Every.of("k", Duration.ofSeconds(-5)));
    }
}
