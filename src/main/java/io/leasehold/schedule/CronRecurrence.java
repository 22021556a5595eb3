package io.leasehold.schedule;

import com.cronutils.model.CronType;
import com.cronutils.model.time.ExecutionTime;
import io.leasehold.core.InvalidSetting;
import io.leasehold.core.Recurrence;
import io.quarkus.scheduler.common.runtime.CronParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * The fire times of a cron expression in a time zone, parsed by quarkus-scheduler's own parser (Quartz
 * syntax, with seconds: its default {@code quarkus.scheduler.cron-type}) and computed by the library it
 * uses, cron-utils. A fire time is a wall-clock time in the zone: on a day whose clocks jump forward, one
 * that does not exist is not fired; on a day they fall back, one that occurs twice is fired once, at its first
 * occurrence (docs/schedules.md, "Time zones").
 */
public final class CronRecurrence implements Recurrence {

    private final ExecutionTime times;
    private final ZoneId zone;

    private CronRecurrence(ExecutionTime times, ZoneId zone) {
        this.times = times;
        this.zone = zone;
    }

    /** The expression {@code cron} read in {@code timeZone}; refusals name {@code cronKey} or {@code zoneKey}. */
    public static CronRecurrence parse(String cronKey, String cron, String zoneKey, String timeZone) {
        ZoneId zone;
        try {
            zone = ZoneId.of(timeZone);
        } catch (DateTimeException e) {
            throw new InvalidSetting(zoneKey, "must be a time zone such as UTC or Europe/Berlin, got '" + timeZone + "'");
        }
        try {
            var parsed = new CronParser(CronType.QUARTZ).parse(cron);
            parsed.validate();
            CronRecurrence made = new CronRecurrence(ExecutionTime.forCron(parsed), zone);
            if (made.after(Instant.EPOCH).isEmpty()) { // one of only past years is said by the firing, on its clock
                throw new InvalidSetting(cronKey, "never fires (a date that does not exist, such as 30 February), got '"
                        + cron + "'");
            }
            return made;
        } catch (InvalidSetting e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new InvalidSetting(cronKey, "must be a cron expression with seconds, such as '0 0 2 * * ?' (second "
                    + "minute hour day-of-month month day-of-week, one of the two days '?'), got '" + cron + "': "
                    + firstLine(e.getMessage()));
        }
    }

    private static String firstLine(String message) {
        String m = message == null ? "not valid" : message.strip();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    @Override
    public Optional<Instant> after(Instant t) {
        Optional<Instant> c = next(t);
        while (c.isPresent() && !walkedTo(c.get())) {
            c = next(c.get());
        }
        return c;
    }

    @Override
    public Optional<Instant> before(Instant t) {
        Optional<Instant> c = last(t);
        while (c.isPresent() && !walkedTo(c.get())) {
            c = last(c.get());
        }
        return c;
    }

    /**
     * Whether {@code c} is a fire time of the walk forward: the library's backward search also matches the second
     * occurrence of a time the clocks repeat, which its forward walk passes over, and every instance must count
     * the same fire times whichever way it looks (a 2:30 daily fires once on the night 2:30 comes twice).
     */
    private boolean walkedTo(Instant c) {
        Optional<Instant> previous = last(c);
        return previous.isEmpty() || next(previous.get()).filter(c::equals).isPresent();
    }

    private Optional<Instant> next(Instant t) {
        return checked(times.nextExecution(ZonedDateTime.ofInstant(t, zone)).map(ZonedDateTime::toInstant), t, true);
    }

    private Optional<Instant> last(Instant t) {
        return checked(times.lastExecution(ZonedDateTime.ofInstant(t, zone)).map(ZonedDateTime::toInstant), t, false);
    }

    /** A fire time on the wrong side of the instant asked would fire early or move a mark ahead: refused, loudly. */
    private Optional<Instant> checked(Optional<Instant> found, Instant t, boolean after) {
        if (found.isPresent() && (after ? !found.get().isAfter(t) : !found.get().isBefore(t))) {
            throw new IllegalStateException("the cron library answered " + found.get() + " as the fire time "
                    + (after ? "after " : "before ") + t + " in " + zone + "; nothing is fired on it");
        }
        return found;
    }
}
