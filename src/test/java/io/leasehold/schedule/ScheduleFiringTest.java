package io.leasehold.schedule;

import io.leasehold.spool.Pause;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Every;
import io.leasehold.core.FireTimeIds;
import io.leasehold.core.HolderTag;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.Misfire;
import io.leasehold.core.RecurringSchedule;
import io.leasehold.directory.DirectoryBackend;
import io.leasehold.directory.PosixDirectorySync;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.lease.ActRefused;
import io.leasehold.lease.LeaseGate;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.ScheduleBook;
import io.leasehold.testing.DrivenClock;
import io.leasehold.spool.StagedBatch;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The firing on a real spool directory and the driven clock: two instances ("a" and "b") share the spool, each
 * with a gate the test opens (the holder's epoch, or 0 with no bus) or shuts (not the holder).
 */
class ScheduleFiringTest {

    private static final Duration MAX_SKEW = Duration.ofSeconds(10);
    /** A fire time every 10s, the driven clock's start on one of them. */
    private static final Instant START = DrivenClock.START;

    @TempDir
    Path dir;
    private final DrivenClock clock = new DrivenClock();
    private DirectoryBackend backend;
    private final Instance a = new Instance("a");
    private final Instance b = new Instance("b");

    /** One instance's firing, its gate and what it told its events. */
    private final class Instance implements ScheduleEvents {
        final String name;
        final AtomicLong epoch = new AtomicLong(-1); // -1: the gate refuses
        final List<String> fired = Collections.synchronizedList(new ArrayList<>());
        final List<Duration> behind = new ArrayList<>();
        ScheduleFiring firing;

        Instance(String name) {
            this.name = name;
        }

        void open(RecurringSchedule s) {
            LeaseGate gate = () -> {
                long e = epoch.get();
                if (e < 0) {
                    throw new ActRefused(name + " does not hold the lease");
                }
                return e;
            };
            firing = new ScheduleFiring(List.of(s), backend.schedules(), backend.store(), gate, clock, MAX_SKEW, 1 << 20,
                    name, this);
        }

        @Override
        public void fired(String schedule, String id, long e) {
            fired.add(id + "@" + e);
        }

        @Override
        public void missed(String schedule, String why) {
        }

        @Override
        public void clockBehind(String schedule, Duration by, boolean beyondSkew) {
            behind.add(beyondSkew ? by : Duration.ZERO);
        }
    }

    @BeforeEach
    void spool() throws Exception {
        SpoolLayout layout = new SpoolLayout(dir);
        layout.createFolders();
        backend = new DirectoryBackend(layout, clock, new LeaseTerms(Duration.ofSeconds(120), 3, MAX_SKEW), 1 << 20,
                HolderTag.of("test-host", 1), new PosixDirectorySync());
        clock.set(START);
    }

    @AfterEach
    void close() {
        backend.close();
    }

    private static RecurringSchedule every10s(Misfire misfire) {
        return new RecurringSchedule("tick", new Every(Duration.ofSeconds(10)), "every", "10s", "UTC", "hello", misfire,
                100, false);
    }

    /** Both instances tick once a second for {@code seconds}, those listed. */
    private void run(int seconds, Instance... ticking) {
        for (int i = 0; i < seconds; i++) {
            clock.advance(Duration.ofSeconds(1));
            for (Instance in : ticking) {
                in.firing.tick();
            }
        }
    }

    private List<String> items() throws Exception {
        List<String> ids = new ArrayList<>();
        for (ItemView v : backend.store().list(ItemState.PENDING, 10_000)) {
            ids.add(v.id());
        }
        Collections.sort(ids);
        return ids;
    }

    /** The ids of every fire time of the schedule after {@code from}, through {@code to}. */
    private static List<String> fireTimes(Instant from, Instant to) {
        List<String> ids = new ArrayList<>();
        for (Instant t = from.plusSeconds(10); !t.isAfter(to); t = t.plusSeconds(10)) {
            ids.add(FireTimeIds.of("tick", t));
        }
        return ids;
    }

    @Test
    void theHolderFiresOneItemPerFireTimeUnderItsEpochAndTheOthersFireNone() throws Exception {
        a.open(every10s(Misfire.ALL));
        b.open(every10s(Misfire.ALL));
        a.epoch.set(7);
        run(60, a, b);
        assertEquals(fireTimes(START, START.plusSeconds(60)), items());
        assertEquals(6, a.fired.size());
        assertTrue(a.fired.stream().allMatch(f -> f.endsWith("@7")), a.fired.toString());
        assertEquals(List.of(), b.fired);
        ScheduleBook.Fired last = backend.schedules().mark("tick").orElseThrow().lastFired();
        assertEquals(7, last.epoch());
        assertEquals("a", last.by());
        // Every instance sees the fleet's mark, the holder or not.
        assertEquals(last, b.firing.views().get(0).mark().lastFired());
        assertEquals(START.plusSeconds(70), b.firing.views().get(0).next());
    }

    @Test
    void afterAFailoverTheNewHolderFiresEveryFireTimeMissedAndNoneTwice() throws Exception {
        a.open(every10s(Misfire.ALL));
        b.open(every10s(Misfire.ALL));
        a.epoch.set(7);
        run(25, a, b);
        a.epoch.set(-1); // a stops (killed); nobody holds the lease for 35s
        run(35, b);
        b.epoch.set(8);
        run(20, b);
        assertEquals(fireTimes(START, START.plusSeconds(80)), items());
        assertEquals(List.of("tick.20261130T150010Z@7", "tick.20261130T150020Z@7"), a.fired);
        assertEquals(6, b.fired.size(), b.fired.toString());
    }

    @Test
    void withMisfireLatestTheNewHolderFiresTheLatestMisfireAndEveryFireTimeStillOnTime() throws Exception {
        a.open(every10s(Misfire.LATEST));
        b.open(every10s(Misfire.LATEST));
        a.epoch.set(7);
        run(15, a, b);
        a.epoch.set(-1);
        run(100, b); // fire times 20 to 110 pass with no holder; at 115, those up to 50 are over a minute old
        b.epoch.set(8);
        b.firing.tick();
        List<String> expected = new ArrayList<>(List.of(FireTimeIds.of("tick", START.plusSeconds(10)),
                FireTimeIds.of("tick", START.plusSeconds(50))));
        expected.addAll(fireTimes(START.plusSeconds(50), START.plusSeconds(110)));
        assertEquals(expected, items());
    }

    @Test
    void twoInstancesFiringAtOnceStillMakeOneItemPerFireTime() throws Exception {
        // No bus (epoch 0 on every instance), or two holders for a moment: the id decides, the mark never goes back.
        a.open(every10s(Misfire.ALL));
        b.open(every10s(Misfire.ALL));
        a.epoch.set(0);
        b.epoch.set(0);
        for (int i = 0; i < 60; i++) {
            clock.advance(Duration.ofSeconds(1));
            Thread one = new Thread(a.firing::tick);
            Thread two = new Thread(b.firing::tick);
            one.start();
            two.start();
            one.join();
            two.join();
        }
        assertEquals(fireTimes(START, START.plusSeconds(60)), items());
        List<String> all = new ArrayList<>(a.fired);
        all.addAll(b.fired);
        assertEquals(6, all.size(), "each fire time made once, by one of the two: " + all);
        assertEquals(START.plusSeconds(60), backend.schedules().mark("tick").orElseThrow().through());
    }

    @Test
    void aFireTimeOnceFiredIsNeverFiredAgainAfterItsItemIsPurgedAndTheClockSteppedBack() throws Exception {
        a.open(every10s(Misfire.ALL));
        a.epoch.set(3);
        run(20, a);
        String first = FireTimeIds.of("tick", START.plusSeconds(10));
        backend.store().cancel(first);
        assertTrue(backend.store().purge(first, ItemState.FAILED));
        clock.set(START.plusSeconds(5)); // an hour's step would do the same; past the first fire time again
        run(10, a);
        b.open(every10s(Misfire.ALL)); // and a new instance, which knows nothing but the spool
        b.epoch.set(3);
        run(5, b);
        assertEquals(List.of(FireTimeIds.of("tick", START.plusSeconds(20))), items());
    }

    @Test
    void aClockBehindTheMarkByMoreThanMaxSkewFiresNothingAndSaysSo() throws Exception {
        a.open(every10s(Misfire.ALL));
        a.epoch.set(3);
        run(30, a);
        b.open(every10s(Misfire.ALL));
        b.epoch.set(4);
        clock.set(START.plusSeconds(30).minus(Duration.ofHours(1))); // b's clock an hour behind
        run(20, b);
        assertEquals(fireTimes(START, START.plusSeconds(30)), items());
        assertEquals(List.of(), b.fired);
        assertEquals(1, b.behind.size());
        assertTrue(b.behind.get(0).compareTo(Duration.ofMinutes(59)) > 0, b.behind.toString());
        assertTrue(b.firing.views().get(0).behind().compareTo(MAX_SKEW) > 0);
        clock.set(START.plusSeconds(35)); // the clock is fixed: b fires what is due, told once that it caught up
        run(10, b);
        assertEquals(fireTimes(START, START.plusSeconds(45)), items());
        assertEquals(2, b.behind.size(), "told once more, that it is no longer behind: " + b.behind);
        assertEquals(Duration.ZERO, b.behind.get(1));
    }

    @Test
    void aPauseInTheSpoolStopsEveryInstanceAndAResumeFiresNothingOfThePause() throws Exception {
        a.open(every10s(Misfire.ALL));
        b.open(every10s(Misfire.ALL));
        a.epoch.set(5);
        run(15, a, b);
        b.firing.setPaused(b.firing.schedule("tick").orElseThrow(), true, "api"); // asked of b, obeyed by a
        run(30, a, b);
        assertTrue(a.firing.views().get(0).paused());
        assertFalse(a.firing.views().get(0).late(), "a paused schedule is not late");
        a.firing.setPaused(a.firing.schedule("tick").orElseThrow(), false, "api");
        run(10, a, b);
        assertEquals(List.of(FireTimeIds.of("tick", START.plusSeconds(10)), FireTimeIds.of("tick", START.plusSeconds(50))),
                items());
    }

    @Test
    void anItemMadeBeforeACrashBeforeItsMarkMovedIsNotMadeAgain() throws Exception {
        a.open(every10s(Misfire.ALL));
        a.epoch.set(5);
        run(15, a);
        // As if the last holder made the next item and died before moving the mark.
        String next = FireTimeIds.of("tick", START.plusSeconds(20));
        backend.store().enqueue(next, new ByteArrayInputStream("hello".getBytes()), 1 << 20);
        run(10, a);
        assertEquals(fireTimes(START, START.plusSeconds(20)), items());
        assertEquals(List.of(FireTimeIds.of("tick", START.plusSeconds(10)) + "@5"), a.fired);
        assertEquals(START.plusSeconds(20), backend.schedules().mark("tick").orElseThrow().through());
    }

    @Test
    void aLeaseLostMidCatchUpStopsFiringAtOnceAndTheMarkKeepsWhatWasFired() throws Exception {
        a.open(every10s(Misfire.ALL));
        a.epoch.set(5);
        run(5, a);
        clock.advance(Duration.ofSeconds(100)); // ten fire times missed
        AtomicLong asked = new AtomicLong();
        LeaseGate losing = () -> {
            if (asked.incrementAndGet() > 4) {
                throw new ActRefused("lost");
            }
            return 5;
        };
        ScheduleFiring firing = new ScheduleFiring(List.of(every10s(Misfire.ALL)), backend.schedules(), backend.store(),
                losing, clock, MAX_SKEW, 1 << 20, "a", ScheduleEvents.NONE);
        firing.tick();
        assertEquals(3, items().size(), items().toString()); // the first ask opens the tick, one more before each item
        assertEquals(START.plusSeconds(30), backend.schedules().mark("tick").orElseThrow().through());
    }

    @Test
    void aFireTimeNobodyFiresForOverAMinuteMakesTheScheduleLateOnEveryInstanceThatLooks() throws Exception {
        a.open(every10s(Misfire.ALL));
        b.open(every10s(Misfire.ALL));
        a.epoch.set(5);
        run(15, a, b);
        a.epoch.set(-1); // the holder is gone; b waits, looking
        run(65, b); // the fire time at 20s is 60s old at 80s
        assertFalse(b.firing.views().get(0).late());
        run(1, b);
        assertTrue(b.firing.views().get(0).late(), "late on an instance that does not hold the lease");
        b.epoch.set(6);
        run(1, b);
        assertFalse(b.firing.views().get(0).late(), "no longer late once the new holder caught up");
        assertEquals(fireTimes(START, START.plusSeconds(80)), items());
    }

    @Test
    void aFireTimeWhoseIdIsReservedWithNoItemIsWaitedOnNeverPassedOver() throws Exception {
        a.open(every10s(Misfire.ALL));
        a.epoch.set(5);
        run(5, a);
        // An enqueue of the next fire time's item under way (or cut off by a crash): its id reserved, no item.
        String next = FireTimeIds.of("tick", START.plusSeconds(10));
        try (StagedBatch batch = backend.store().stageBatch(1 << 20)) {
            try (OutputStream out = batch.payload(1, next)) {
                out.write("hello".getBytes());
            }
            batch.item(1, next);
            run(20, a);
            assertEquals(List.of(), items(), "nothing made past a fire time that may still be made");
            assertEquals(START, backend.schedules().mark("tick").orElseThrow().through());
        } // closed without a commit: the reservation goes, as housekeeping removes a dead enqueue's
        run(1, a);
        assertEquals(fireTimes(START, START.plusSeconds(26)), items());
        assertEquals(List.of(next + "@5", FireTimeIds.of("tick", START.plusSeconds(20)) + "@5"), a.fired);
    }

    @Test
    void aResumePassesOverThePausesFireTimesEvenWhenNoHolderLookedMeanwhile() throws Exception {
        a.open(every10s(Misfire.ALL));
        b.open(every10s(Misfire.ALL));
        a.epoch.set(5);
        run(15, a, b);
        b.firing.setPaused(b.firing.schedule("tick").orElseThrow(), true, "ops");
        clock.advance(Duration.ofSeconds(40)); // the fleet down meanwhile: nobody looks
        b.firing.setPaused(b.firing.schedule("tick").orElseThrow(), false, "ops");
        run(10, a);
        assertEquals(List.of(FireTimeIds.of("tick", START.plusSeconds(10)), FireTimeIds.of("tick", START.plusSeconds(60))),
                items());
    }

    @Test
    void aScheduleNoHolderEverFiredIsLateAMinuteAfterItsFirstFireTime() throws Exception {
        b.open(every10s(Misfire.ALL)); // waiting: its gate refuses, and nobody else fires
        run(70, b);
        assertNull(b.firing.views().get(0).mark(), "no mark was ever written");
        assertFalse(b.firing.views().get(0).late());
        run(1, b); // the first fire time after its first look (10s) is now over 60s old
        assertTrue(b.firing.views().get(0).late());
    }

    @Test
    void aSpoolThatCannotWriteTheMarkLosesNoFireTimeAndMakesNoneTwice() throws Exception {
        // The real book, refusing its writes while the test says so, as a full disk refuses them after the item went in.
        java.util.concurrent.atomic.AtomicBoolean full = new java.util.concurrent.atomic.AtomicBoolean();
        ScheduleBook real = backend.schedules();
        ScheduleBook refusing = new ScheduleBook() {
            @Override
            public java.util.Optional<Mark> mark(String name) throws java.io.IOException {
                return real.mark(name);
            }

            @Override
            public void advance(String name, Mark mark) throws java.io.IOException {
                if (full.get()) {
                    throw new java.io.IOException("No space left on device");
                }
                real.advance(name, mark);
            }

            @Override
            public java.util.Optional<Pause> pause(String name) throws java.io.IOException {
                return real.pause(name);
            }

            @Override
            public void setPause(String name, Pause pause) throws java.io.IOException {
                real.setPause(name, pause);
            }
        };
        ScheduleFiring firing = new ScheduleFiring(List.of(every10s(Misfire.ALL)), refusing, backend.store(), () -> 5, clock,
                MAX_SKEW, 1 << 20, "a", a);
        clock.advance(Duration.ofSeconds(1));
        firing.tick();
        full.set(true);
        for (int i = 0; i < 15; i++) { // through the fire time at 10s, its mark refused each second
            clock.advance(Duration.ofSeconds(1));
            firing.tick();
        }
        assertTrue(firing.views().get(0).problem().contains("No space left on device"), firing.views().get(0).problem());
        assertEquals(START, real.mark("tick").orElseThrow().through());
        full.set(false);
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofSeconds(1));
            firing.tick();
        }
        assertEquals(fireTimes(START, START.plusSeconds(26)), items());
        assertEquals(List.of(FireTimeIds.of("tick", START.plusSeconds(10)) + "@5",
                FireTimeIds.of("tick", START.plusSeconds(20)) + "@5"), a.fired, "each made once, none lost");
        assertNull(firing.views().get(0).problem());
        assertEquals(START.plusSeconds(20), real.mark("tick").orElseThrow().through());
    }

    @Test
    void aCronOfPastYearsOnlyIsSaidNeverToFireAgain() throws Exception {
        String cron = "0 0 0 1 1 ? 2020";
        ScheduleFiring firing = new ScheduleFiring(List.of(new RecurringSchedule("old", CronRecurrence.parse("k", cron,
                "z", "UTC"), "cron", cron, "UTC", "", Misfire.LATEST, 100, false)), backend.schedules(), backend.store(),
                () -> 1, clock, MAX_SKEW, 1 << 20, "a", ScheduleEvents.NONE);
        firing.tick();
        assertNull(firing.views().get(0).next());
        assertTrue(firing.views().get(0).problem().endsWith("it never fires again"), firing.views().get(0).problem());
        assertEquals(List.of(), items());
    }

    @Test
    void aScheduleNoInstanceHasSeenStartsAtItsFirstFireTimeAfterNow() throws Exception {
        clock.set(START.plusSeconds(5));
        a.open(every10s(Misfire.ALL));
        a.epoch.set(1);
        a.firing.tick();
        assertEquals(List.of(), items());
        assertNull(backend.schedules().mark("tick").orElseThrow().lastFired());
        run(5, a);
        assertEquals(List.of(FireTimeIds.of("tick", START.plusSeconds(10))), items());
    }
}
