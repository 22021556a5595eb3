package io.leasehold.core;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The one decision of a recurring schedule: given its mark (the fire time through which everything is
 * decided, fired or not, kept in the spool) and the time now, which fire times to fire and what the mark
 * becomes. Pure: the caller reads the mark and the clock, fires, and only then moves the mark
 * (docs/schedules.md, "Exactly one item per fire time").
 *
 * <p>Fire times at or before the mark are never due, so a fire time once decided is never fired again, after
 * a purge of its item or a clock stepped back; a clock behind the mark fires nothing and says by how much.
 */
public final class DueFireTimes {

    /**
     * A fire time fired later than this after it fell is a misfire, which the schedule's policy decides; one
     * fired within it is on time and always made, and a schedule with one unfired for longer is late. Long
     * enough for a failover of the controller lease with its defaults (15s, 10s) and ticks delayed by a busy
     * host; short enough that a skipped run is a stale one. Quartz's misfire threshold is the same minute.
     */
    public static final Duration LATE_AFTER = Duration.ofSeconds(60);

    private DueFireTimes() {
    }

    /**
     * @param fire the fire times to fire now, oldest first
     * @param mark what the mark becomes once they are fired (unchanged when equal to the one given)
     * @param missed fire times after the old mark passed over without an item (misfire policy or pause)
     * @param behind how far the clock is behind the mark (zero when it is not)
     */
    public record Due(List<Instant> fire, Instant mark, boolean missed, Duration behind) {
    }

    /**
     * What is due at {@code now} for {@code schedule} whose mark is {@code mark} (empty: never seen by any
     * instance, which starts the schedule now: no fire time before now is fired). A paused schedule fires
     * nothing and its mark still moves, so a resume does not fire what fell during the pause.
     */
    public static Due at(RecurringSchedule schedule, Optional<Instant> mark, Instant now, boolean paused) {
        Recurrence r = schedule.recurrence();
        Optional<Instant> latest = r.atOrBefore(now);
        if (mark.isEmpty()) {
            return new Due(List.of(), latest.orElse(now.truncatedTo(ChronoUnit.SECONDS)), false, Duration.ZERO);
        }
        Instant through = mark.get();
        if (now.isBefore(through)) {
            return new Due(List.of(), through, false, Duration.between(now, through));
        }
        if (latest.isEmpty() || !latest.get().isAfter(through)) {
            return new Due(List.of(), through, false, Duration.ZERO);
        }
        Instant newest = latest.get();
        if (paused) {
            return new Due(List.of(), newest, true, Duration.ZERO);
        }
        // Fire times within LATE_AFTER of falling are on time, whatever the policy: a tick a second late (a
        // pause of the JVM, a slow spool) is no time with nobody firing. The policy decides only older ones.
        int misfired = switch (schedule.misfire()) {
            case ALL -> schedule.maxCatchUp();
            case LATEST -> 1;
            case SKIP -> 0;
        };
        List<Instant> fire = new ArrayList<>();
        Optional<Instant> f = latest;
        while (f.isPresent() && f.get().isAfter(through)) {
            if (!onTime(f.get(), now)) {
                if (misfired == 0) {
                    break;
                }
                misfired--;
            }
            fire.add(f.get());
            f = r.before(f.get());
        }
        boolean missed = f.isPresent() && f.get().isAfter(through);
        Collections.reverse(fire);
        return new Due(List.copyOf(fire), newest, missed, Duration.ZERO);
    }

    /** Whether a fire time fell no more than {@link #LATE_AFTER} before {@code now}: not a misfire. */
    private static boolean onTime(Instant fireTime, Instant now) {
        return Duration.between(fireTime, now).compareTo(LATE_AFTER) <= 0;
    }

    /**
     * Whether a fire time fell more than {@link #LATE_AFTER} ago and is after the mark: nobody fired it (the
     * fleet has no holder, or the holder cannot write), whatever the misfire policy will make of it later.
     */
    public static boolean late(RecurringSchedule schedule, Optional<Instant> mark, Instant now, boolean paused) {
        if (paused || mark.isEmpty()) {
            return false;
        }
        Optional<Instant> first = schedule.recurrence().after(mark.get());
        return first.isPresent() && Duration.between(first.get(), now).compareTo(LATE_AFTER) > 0;
    }
}
