package io.leasehold.core;

/**
 * One recurring schedule as configured ({@code leasehold.schedules."<name>".*}).
 *
 * @param rule how its fire times were given, as written: {@code cron} or {@code every}
 * @param expression the cron expression or the period as written
 * @param timeZone the zone a cron expression is read in ({@code UTC} for {@code every})
 * @param paused whether it starts paused where the spool says nothing (a pause or resume kept there wins)
 */
public record RecurringSchedule(String name, Recurrence recurrence, String rule, String expression, String timeZone,
        String payload, Misfire misfire, int maxCatchUp, boolean paused) {

    /** The most items one catch-up may make. */
    public static final int MOST_CATCH_UP = 10_000;

    public RecurringSchedule {
        if (!FireTimeIds.isName(name)) {
            throw new IllegalArgumentException("invalid schedule name '" + name + "'");
        }
        if (maxCatchUp < 1 || maxCatchUp > MOST_CATCH_UP) {
            // More would keep the one schedules' thread on a single catch-up for too long (each item is a durable write).
            throw new InvalidSetting(key(name, "max-catch-up"), "must be 1 to " + MOST_CATCH_UP
                    + ", got " + maxCatchUp);
        }
    }

    /** The configuration key of one of its settings, as an error names it (and as it is written: a name has no dot). */
    public static String key(String name, String setting) {
        return "leasehold.schedules." + name + "." + setting;
    }
}
