package io.leasehold.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {

    @Test
    void aDurationIsWrittenInTheLargestUnitThatHoldsItExactly() {
        assertEquals("-5s", DurationText.of(Duration.ofSeconds(-5)));
        assertEquals("0s", DurationText.of(Duration.ZERO));
        assertEquals("2h", DurationText.of(Duration.ofHours(2)));
        assertEquals("90m", DurationText.of(Duration.ofMinutes(90)));
        assertEquals("90s", DurationText.of(Duration.ofSeconds(90)));
        assertEquals("1500ms", DurationText.of(Duration.ofMillis(1500)));
        assertEquals("500000ns", DurationText.of(Duration.ofNanos(500_000)));
        assertEquals("1500001ns", DurationText.of(Duration.ofNanos(1_500_001)));
    }
}
