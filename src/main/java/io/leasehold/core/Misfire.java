package io.leasehold.core;

/**
 * What a schedule does with fire times nobody fired when they fell (the fleet was down, a failover was under
 * way, the holder was paused): one item for the latest, one for each (up to a bound), or none.
 */
public enum Misfire {
    /** One item, for the latest fire time missed. */
    LATEST,
    /** One item per fire time missed, oldest first, at most the schedule's max-catch-up (the latest ones). */
    ALL,
    /** None: a fire time is fired only on time. */
    SKIP;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Misfire of(String key, String written) {
        for (Misfire m : values()) {
            if (m.label().equals(written)) {
                return m;
            }
        }
        throw new InvalidSetting(key, "must be 'latest', 'all' or 'skip', got '" + written + "'");
    }
}
