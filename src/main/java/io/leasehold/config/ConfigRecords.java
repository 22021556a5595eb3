package io.leasehold.config;

import io.leasehold.core.Backoff;
import io.leasehold.core.DurationText;
import io.leasehold.core.Every;
import io.leasehold.core.FireTimeIds;
import io.leasehold.core.InvalidSetting;
import io.leasehold.core.Misfire;
import io.leasehold.core.Recurrence;
import io.leasehold.core.RecurringSchedule;
import io.leasehold.schedule.CronRecurrence;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import io.leasehold.core.LeaseTerms;
import io.leasehold.drain.DrainSettings;
import io.leasehold.lease.LeaseTiming;
import io.leasehold.lease.WallClockFloor;

/**
 * The settings records made from the configuration, the one place each is put together: their
 * constructors own the rules of their values ({@link io.leasehold.core.InvalidSetting} names the key),
 * and {@link ConfigCheck} builds them to collect those refusals before anything starts.
 */
public final class ConfigRecords {

    private ConfigRecords() {
    }

    public static LeaseTerms leaseTerms(LeaseholdConfig config) {
        LeaseholdConfig.ClaimConfig claim = config.claim();
        return new LeaseTerms(claim.lease(), claim.renewalsPerLease(), claim.maxSkew());
    }

    /**
     * What a new lease store is moved past where no epoch floor outlives the bus's data: with the
     * JetStream spool an instance may run with no volume (Knative); null for the directory spool,
     * whose shared folder keeps the floor (docs/lease.md, "Epochs without a volume").
     */
    public static WallClockFloor wallFloor(LeaseholdConfig config) {
        return config.spool().kind().equals("jetstream") ? new WallClockFloor(config.claim().maxSkew()) : null;
    }

    public static Backoff backoff(LeaseholdConfig config) {
        return new Backoff(config.drain().backoffInitial(), config.drain().backoffMax());
    }

    public static DrainSettings drainSettings(LeaseholdConfig config) {
        return drainSettings(config, backoff(config));
    }

    /** With {@code backoff} given, so the check can still ask the rest when the backoff was refused (null). */
    static DrainSettings drainSettings(LeaseholdConfig config, Backoff backoff) {
        LeaseholdConfig.DrainConfig drain = config.drain();
        return new DrainSettings(drain.concurrency(), drain.maxAttempts(), drain.pollInterval(),
                config.handler().timeout(), backoff, drain.shutdownTimeout(), config.claim().takeover());
    }

    /** The recurring schedules, by name; each refusal names its schedule's key. */
    public static List<RecurringSchedule> schedules(LeaseholdConfig config) {
        List<RecurringSchedule> all = new ArrayList<>();
        new TreeMap<>(config.schedules()).forEach((name, c) -> all.add(schedule(name, c)));
        return List.copyOf(all);
    }

    static RecurringSchedule schedule(String name, LeaseholdConfig.ScheduleConfig c) {
        if (!FireTimeIds.isName(name)) {
            throw new InvalidSetting("leasehold.schedules.\"" + name + "\"", "is not a schedule name: a name must match "
                    + FireTimeIds.NAME.pattern() + " (it is the start of its items' ids)");
        }
        String cronKey = RecurringSchedule.key(name, "cron");
        String everyKey = RecurringSchedule.key(name, "every");
        Optional<String> cron = c.cron().filter(s -> !s.isBlank());
        if (cron.isPresent() == c.every().isPresent()) {
            throw new InvalidSetting(cronKey, "or " + everyKey + " must be set, exactly one of the two, got "
                    + (cron.isPresent() ? "both" : "neither"));
        }
        if (cron.isEmpty() && c.timeZone().isPresent()) {
            throw new InvalidSetting(RecurringSchedule.key(name, "time-zone"), "applies to a cron schedule only: the fire times"
                    + " of " + everyKey + " are instants, the same in every zone; remove it");
        }
        String zone = c.timeZone().orElse("UTC");
        Recurrence recurrence = cron.isPresent()
                ? CronRecurrence.parse(cronKey, cron.get(), RecurringSchedule.key(name, "time-zone"), zone)
                : Every.of(everyKey, c.every().get());
        return new RecurringSchedule(name, recurrence, cron.isPresent() ? "cron" : "every",
                cron.orElseGet(() -> DurationText.of(c.every().get())), zone,
                c.payload().orElse(""), Misfire.of(RecurringSchedule.key(name, "misfire"), c.misfire()),
                c.maxCatchUp(), c.paused());
    }

    public static LeaseTiming leaseTiming(LeaseholdConfig.LeaseConfig lease) {
        return new LeaseTiming(lease.duration(), lease.renewEvery(), lease.renewDeadline());
    }
}
