package io.leasehold.schedule;

import io.leasehold.spool.Pause;
import io.leasehold.core.Clock;
import io.leasehold.core.DueFireTimes;
import io.leasehold.core.DurationText;
import io.leasehold.core.FireTimeIds;
import io.leasehold.core.Misfire;
import io.leasehold.core.RecurringSchedule;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.LeaseGate;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ScheduleBook;
import io.leasehold.spool.ScheduleBook.Fired;
import io.leasehold.spool.ScheduleBook.Mark;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The schedules' tick: for each schedule, read its mark and pause from the spool, ask {@link DueFireTimes}
 * what is due, and, where the gate lets this instance fire (the lease holder, or any instance without a
 * bus), make one item per fire time due and move the mark past it. Every instance ticks, so every
 * instance's views show the fleet's marks; only those the gate passes write. One tick at a time.
 *
 * <p>The item is made before the mark moves: a crash between the two leaves a fire time whose item exists,
 * which the next tick finds known (refused as any known id) and only moves the mark past. So a fire time
 * is never lost to a crash, and never made twice, by one instance or two (docs/schedules.md).
 */
public final class ScheduleFiring {

    private static final Logger LOG = Logger.getLogger(ScheduleFiring.class);

    private final List<RecurringSchedule> schedules;
    private final ScheduleBook book;
    private final ItemStore store;
    private final LeaseGate gate;
    private final Clock clock;
    private final Duration maxSkew;
    private final long maxBytes;
    private final String instance;
    private final ScheduleEvents events;
    /** Read by the API and scrapes at any time; written by the tick and by a pause by hand. */
    private final Map<String, ScheduleView> views = new ConcurrentHashMap<>();
    /** One tick at a time (the trigger skips a second while one runs; a test or a command may tick too). */
    private final Object ticking = new Object();
    /** Ids found reserved with no item, each said once in the log while the mark waits on it. */
    private final java.util.Set<String> waitingOn = ConcurrentHashMap.newKeySet();

    /**
     * @param gate the singleton work's gate: passes the lease holder with its epoch (or 0 with no bus), refuses
     *     every other instance
     * @param instance this instance's name, kept in the marks it writes
     */
    public ScheduleFiring(List<RecurringSchedule> schedules, ScheduleBook book, ItemStore store, LeaseGate gate,
            Clock clock, Duration maxSkew, long maxBytes, String instance, ScheduleEvents events) {
        this.schedules = List.copyOf(schedules);
        this.book = book;
        this.store = store;
        this.gate = gate;
        this.clock = clock;
        this.maxSkew = maxSkew;
        this.maxBytes = maxBytes;
        this.instance = instance;
        this.events = events;
        for (RecurringSchedule s : schedules) {
            views.put(s.name(), ScheduleView.unseen(s));
        }
    }

    public List<RecurringSchedule> schedules() {
        return schedules;
    }

    public Optional<RecurringSchedule> schedule(String name) {
        return schedules.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** Each schedule as last seen, in the configuration's order; no file or network call. */
    public List<ScheduleView> views() {
        return schedules.stream().map(s -> views.get(s.name())).toList();
    }

    /** One look at every schedule, firing what is due where the gate allows. Blocking: file or bus calls. */
    public void tick() {
        synchronized (ticking) {
            for (RecurringSchedule s : schedules) {
                tick(s);
            }
        }
    }

    private void tick(RecurringSchedule s) {
        ScheduleView before = views.get(s.name());
        ScheduleView after;
        try {
            after = look(s, before);
        } catch (IOException | RuntimeException e) {
            after = before.failed("the spool's record of it cannot be read or written: "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()) + " (tried again every tick)");
        }
        if (after.problem() != null && !after.problem().equals(before.problem())) {
            LOG.warnf("schedule %s: %s", s.name(), after.problem());
        } else if (before.problem() != null && after.problem() == null) {
            LOG.infof("schedule %s: no longer at fault", s.name());
        }
        views.put(s.name(), after);
    }

    private ScheduleView look(RecurringSchedule s, ScheduleView before) throws IOException {
        Optional<Mark> mark = book.mark(s.name());
        Optional<Pause> pause = book.pause(s.name());
        boolean paused = pause.map(Pause::paused).orElse(s.paused());
        Instant now = clock.now();
        DueFireTimes.Due due = DueFireTimes.at(s, mark.map(Mark::through), now, paused);
        reportBehind(s, before, due.behind());
        boolean changes = !due.fire().isEmpty() || mark.isEmpty() || !due.mark().equals(mark.get().through());
        if (changes) {
            mark = fire(s, mark, due, paused);
        }
        Optional<Instant> through = mark.map(Mark::through);
        Instant from = through.filter(t -> t.isAfter(now)).orElse(now); // a clock behind the mark: after the mark
        Instant firstSeen = before.firstSeenAt() == null ? now : before.firstSeenAt();
        // With no mark yet (no holder ever fired it, or its record cannot be written), late counts from the first look.
        boolean late = DueFireTimes.late(s, Optional.of(through.orElse(firstSeen)), now, paused);
        Duration behind = due.behind().compareTo(maxSkew) > 0 ? due.behind() : Duration.ZERO; // within skew: normal
        Optional<Instant> after = s.recurrence().after(from);
        String problem = after.isEmpty() ? "its rule gives no fire time after " + from + " (a cron of past years only):"
                + " it never fires again" : null;
        Instant next = paused ? null : after.orElse(null); // paused: nothing will fire
        return new ScheduleView(s, mark.orElse(null), paused, pause.orElse(null), next, late, behind, firstSeen, now,
                problem);
    }

    /** Fires what is due, if the gate passes this instance; answers the mark as it stands after. */
    private Optional<Mark> fire(RecurringSchedule s, Optional<Mark> mark, DueFireTimes.Due due, boolean paused)
            throws IOException {
        long epoch;
        try {
            epoch = gate.epochForAct();
        } catch (ActRefused e) {
            return mark; // not the holder: the holder fires and moves the mark, which the next look shows
        }
        Fired last = mark.map(Mark::lastFired).orElse(null);
        Instant decided = mark.map(Mark::through).orElse(null); // what this tick wrote, so it need not read it back
        for (Instant fireTime : due.fire()) {
            try {
                epoch = gate.epochForAct(); // asked again before each: a lease lost mid-catch-up stops it here
            } catch (ActRefused e) {
                LOG.infof("schedule %s: stopped firing, the controller lease no longer lets this instance act: %s",
                        s.name(), e.getMessage());
                return book.mark(s.name());
            }
            Optional<Mark> latest = book.mark(s.name()); // looked at again: another instance may have gone past it
            if (latest.isPresent() && !latest.get().through().isBefore(fireTime)) {
                continue;
            }
            String id = FireTimeIds.of(s.name(), fireTime);
            Made made = make(id, s.payload());
            if (made == Made.RESERVED) {
                if (waitingOn.add(id)) {
                    LOG.warnf("schedule %s: %s is known but is no item yet (an enqueue of it under way, or one cut off by a"
                            + " crash, whose reservation housekeeping removes after leasehold.spool.tmp-max-age): its mark"
                            + " waits there, and it is made once the id is free", s.name(), id);
                }
                return book.mark(s.name());
            }
            waitingOn.remove(id);
            if (made == Made.MADE) { // said before the mark is written: a write that fails leaves the item made
                LOG.infof("schedule %s: fired %s under epoch %d", s.name(), id, epoch);
                events.fired(s.name(), id, epoch);
            }
            last = new Fired(fireTime, id, epoch, instance, clock.now());
            book.advance(s.name(), new Mark(fireTime, last));
            decided = fireTime;
        }
        if (due.missed() && !paused) { // a pause passes fire times over by intent: not news each time
            String why = "fire times missed through " + due.mark() + " passed over without an item (misfire="
                    + s.misfire().label() + (s.misfire() == Misfire.ALL ? ", max-catch-up=" + s.maxCatchUp() : "") + ")";
            LOG.infof("schedule %s: %s", s.name(), why);
            events.missed(s.name(), why);
        }
        if (decided == null || due.mark().isAfter(decided)) {
            book.advance(s.name(), new Mark(due.mark(), last));
            decided = due.mark();
        }
        return Optional.of(new Mark(decided, last)); // another instance's later move shows at the next look
    }

    /** What an enqueue of a fire time's item found. */
    private enum Made {
        /** This instance made it. */
        MADE,
        /** An item of the id is there: made by another instance, or by one before a crash. */
        KNOWN,
        /** The id is reserved but no item is there: an enqueue under way, or one a crash cut off. */
        RESERVED
    }

    private Made make(String id, String payload) throws IOException {
        try {
            store.enqueue(id, new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)), maxBytes);
            return Made.MADE;
        } catch (ItemStore.DuplicateItemException e) {
            // Moving the mark past a reservation whose enqueue died would lose the fire time for good.
            return store.lookup(id).isPresent() ? Made.KNOWN : Made.RESERVED;
        }
    }

    private void reportBehind(RecurringSchedule s, ScheduleView before, Duration behind) {
        boolean beyond = behind.compareTo(maxSkew) > 0;
        boolean was = !before.behind().isZero(); // a view keeps only a skew beyond max-skew
        if (beyond != was) {
            if (beyond) {
                LOG.warnf("schedule %s: this instance's clock is %d ms behind the schedule's last fire time, more than "
                        + "leasehold.claim.max-skew (%s): nothing is fired until the clock passes it (check NTP on this "
                        + "host)", s.name(), behind.toMillis(), DurationText.of(maxSkew));
            } else {
                LOG.infof("schedule %s: this instance's clock is no longer behind the schedule's last fire time", s.name());
            }
            events.clockBehind(s.name(), behind, beyond);
        }
    }

    /** Pauses or resumes a schedule for the whole fleet (kept in the spool); the next tick of every instance obeys. */
    public Pause setPaused(RecurringSchedule s, boolean paused, String by) throws IOException {
        Optional<Pause> already = book.pause(s.name());
        if (already.isPresent() && already.get().paused() == paused) {
            return already.get(); // a second pause (or resume) changes nothing, its time and author included
        }
        Instant now = clock.now();
        Pause pause = new Pause(paused, now, by);
        if (!paused) {
            // Fire times of the pause are passed over even if no holder looked while it lasted (the fleet down,
            // a failover): moving a mark forward is safe from any instance, and the id still makes each item once.
            Optional<Mark> mark = book.mark(s.name());
            Optional<Instant> through = s.recurrence().atOrBefore(now);
            if (mark.isPresent() && through.isPresent() && through.get().isAfter(mark.get().through())) {
                book.advance(s.name(), new Mark(through.get(), mark.get().lastFired()));
            }
        }
        book.setPause(s.name(), pause);
        views.computeIfPresent(s.name(), (name, view) -> view.with(pause));
        return pause;
    }

    /** One item now, by hand, whatever the schedule's marks and pause: its id names the instant. */
    public String trigger(RecurringSchedule s) throws IOException {
        String id = FireTimeIds.manual(s.name(), clock.now());
        store.enqueue(id, new ByteArrayInputStream(s.payload().getBytes(StandardCharsets.UTF_8)), maxBytes);
        return id;
    }
}
