package io.leasehold.core;

import java.time.Duration;

/**
 * A duration as people write it in the configuration ({@code 10s}, {@code -5s}, {@code 2h}, {@code 1500ms}),
 * never Java's {@code PT10S}: a message quoting a setting should read like the setting. One unit, the
 * largest that divides it exactly, so the text is itself a valid value of the key it names.
 */
public final class DurationText {

    private DurationText() {
    }

    public static String of(Duration d) {
        long ms = d.toMillis();
        if (!Duration.ofMillis(ms).equals(d)) {
            return d.toNanos() + "ns"; // finer than a millisecond: no setting is written so, but say it exactly
        }
        if (ms == 0) {
            return "0s";
        }
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
