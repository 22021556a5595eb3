package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.Census;
import io.leasehold.testing.Faketime;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.SharedSpool.Run;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault suite, clocks: three instances drain one spool, one with a true clock, one an hour behind
 * (libfaketime), one whose wall clock steps 10 minutes forward in the middle of every round, while its
 * monotonic clock runs on as an NTP step leaves it. Under the default takeover rule ({@code observed})
 * no live claim may be taken over: every item runs once. The control shows the same skew costing live
 * claims under {@code reading}, so the main test could fail. A third test steps a working instance's
 * clock back an hour.
 */
class ClockFaultIT {

    private static final int ITEMS = 60;
    /** Every tenth item works past several renewals (every 1 s), the rest 0.3 s. */
    private static final String WORK = "case ${LEASEHOLD_ITEM_ID##*-} in *0) sleep 4 ;; *) sleep 0.3 ;; esac";

    @RegisterExtension
    final Instances instances = new Instances();
    private SharedSpool spool;

    private ServiceProcess start(String name, Map<String, String> env, String takeover) {
        Map<String, String> allEnv = new HashMap<>(spool.env(name));
        allEnv.putAll(env);
        Map<String, String> config = new HashMap<>(SoloInstance.SHORT_LEASES);
        config.put("leasehold.claim.takeover", takeover);
        ServiceProcess p = ServiceProcess.start(name, spool.config(config), allEnv);
        instances.add(p);
        return p;
    }

    @Test
    void clocksHoursApartOrSteppedMidRunCostNoLiveClaim() {
        spool = instances.on(SharedSpool.create("clocks", WORK));
        Faketime stepped = Faketime.steppable(spool.root().resolve("jumper.faketime"));
        start("normal", Map.of(), "observed");
        start("behind", Faketime.offset("-1h"), "observed");
        start("jumper", stepped.env(), "observed");
        instances.all().forEach(p -> p.awaitReady(Duration.ofSeconds(120)));

        List<String> all = new ArrayList<>();
        int rounds = FaultRounds.count();
        for (int round = 1; round <= rounds; round++) {
            long started = System.nanoTime();
            int r = round;
            List<String> ids = IntStream.rangeClosed(1, ITEMS).mapToObj(n -> "r" + r + "-" + n).toList();
            all.addAll(ids);
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                Answers.assertEnqueued(instances.all().get(i % 3), id, "payload of " + id);
            }
            Await.until("a third of round " + round + " started", Duration.ofSeconds(60),
                    () -> spool.runs().stream().filter(run -> run.kind().equals("start") && ids.contains(run.id()))
                            .count() >= ITEMS / 3);
            Duration ahead = Duration.ofMinutes(10L * round);
            stepped.step("+" + ahead.toMinutes() + "m");

            // The faults are in effect: the spool holds claims read an hour behind and, since the step, far ahead.
            Map<String, Duration> skews = new LinkedHashMap<>();
            Duration aheadAtLeast = ahead.minusMinutes(1);
            Await.value("claims of round " + round + " read 1 h behind and " + ahead + " ahead", Duration.ofSeconds(60),
                    () -> lookAtReadings(ids, skews), seen -> seen.containsKey("behind")
                            && seen.getOrDefault("ahead", Duration.ZERO).compareTo(aheadAtLeast) >= 0);
            assertTrue(skews.get("behind").compareTo(Duration.ofMinutes(-59)) <= 0, skews.toString());

            Census.awaitEachOnce(spool.spoolDir(), all, Duration.ofSeconds(20)); // mid-run: none lost or doubled
            Await.until("round " + round + " all done", Duration.ofMinutes(2),
                    () -> spool.names("done").containsAll(ids));
            assertEachDoneOnceNoneTakenOver(all, ids);
            System.out.printf("ClockFaultIT round %d/%d: %d items done once each, 0 takeovers; readings seen"
                    + " relative to the test's clock %s; by instance %s; %.1f s%n", round, rounds, ITEMS, skews,
                    byInstance(ids), (System.nanoTime() - started) / 1e9);
        }
    }

    /**
     * A wall clock stepped back an hour while its instance works items for several claim leases (10 s
     * against 3 s): it goes on renewing those claims, their readings an hour behind from then on, so the
     * other instance takes none over and every item runs once. When the service's ticks were timed on
     * the wall clock (the Quarkus scheduler), its renewals stopped for the hour.
     */
    @Test
    void aClockSteppedBackAnHourMidWorkGoesOnRenewingItsClaims() {
        spool = instances.on(SharedSpool.create("clocks-back", "sleep 10"));
        Faketime stepped = Faketime.steppable(spool.root().resolve("stepper.faketime"));
        ServiceProcess stepper = start("stepper", stepped.env(), "observed");
        start("normal", Map.of(), "observed");
        instances.all().forEach(p -> p.awaitReady(Duration.ofSeconds(120)));
        List<String> ids = IntStream.rangeClosed(1, 6).mapToObj(n -> "back-" + n).toList();
        ids.forEach(id -> Answers.assertEnqueued(stepper, id, "payload of " + id));
        List<String> working = Await.value("the stepper works an item", Duration.ofSeconds(60),
                () -> spool.runs().stream().filter(r -> r.kind().equals("start") && r.instance().equals("stepper"))
                        .map(Run::id).toList(), started -> !started.isEmpty());

        stepped.step("-1h");
        // A claim the stepper held before the step, renamed since with a reading an hour behind: a renewal.
        Await.until("a claim of " + working + " renewed an hour behind", Duration.ofSeconds(30),
                () -> spool.names("claimed").stream().map(n -> ClaimName.parse(n).orElse(null))
                        .anyMatch(c -> c != null && working.contains(c.id())
                                && c.reading().isBefore(Instant.now().minus(Duration.ofMinutes(30)))));
        Await.until("all done", Duration.ofMinutes(2), () -> spool.names("done").containsAll(ids));
        assertEachDoneOnceNoneTakenOver(ids, ids);
        System.out.printf("ClockFaultIT step back: %d items done once each, 0 takeovers; the stepper's claims of %s"
                + " renewed after the step; by instance %s%n", ids.size(), working, byInstance(ids));
    }

    /**
     * The control: under {@code takeover=reading}, a holder an hour behind loses its live claims to an
     * instance that starts while it works, which runs them again.
     */
    @Test
    void readingRuleTakesLiveClaimsOfAClockBehind() {
        spool = instances.on(SharedSpool.create("clocks-reading",
                "case $LEASEHOLD_ATTEMPT in 1) sleep 30 ;; *) sleep 0.3 ;; esac"));
        ServiceProcess behind = start("behind", Faketime.offset("-1h"), "reading").awaitReady(Duration.ofSeconds(90));
        List<String> ids = List.of("held-1", "held-2");
        ids.forEach(id -> Answers.assertEnqueued(behind, id, id));
        Await.until("behind runs both", Duration.ofSeconds(30),
                () -> ids.stream().allMatch(id -> !spool.runs("start", id).isEmpty()));
        ServiceProcess normal = start("normal", Map.of(), "reading").awaitReady(Duration.ofSeconds(90));

        Await.until("both done", Duration.ofSeconds(60), () -> spool.names("done").containsAll(ids));
        Census.awaitEachOnce(spool.spoolDir(), ids, Duration.ofSeconds(10));
        for (String id : ids) {
            List<Run> starts = spool.runs("start", id);
            assertEquals(List.of("behind:1", "normal:2"), starts.stream().map(s -> s.instance() + ":" + s.attempt())
                    .toList(), id + ": the live claim of the clock behind was taken over and run again");
        }
        assertEquals(2.0, normal.metric("leasehold_takeovers_total", ""));
        Await.until("behind finds both claims lost", Duration.ofSeconds(10),
                () -> behind.metric("leasehold_claims_lost_total", "") == 2.0);
        System.out.println("ClockFaultIT control (takeover=reading): both live claims of the clock 1 h behind taken"
                + " over and run twice");
    }

    /**
     * Every item of {@code all} done and nothing else in the spool, the latest round's {@code ids} each run
     * once by a live holder, no claim taken over or lost, one attempt per item of {@code all}.
     */
    private void assertEachDoneOnceNoneTakenOver(List<String> all, List<String> ids) {
        Census census = Census.awaitEachOnce(spool.spoolDir(), all, Duration.ofSeconds(30));
        assertEquals(all.stream().sorted().toList(), census.in("done"), "every item done, nothing else");
        assertEquals(Map.of(), spool.notRunOnce(ids), "no item run twice, or never, by live holders");
        assertEquals(0.0, sum("leasehold_takeovers_total"), "no live claim taken over");
        assertEquals(0.0, sum("leasehold_claims_lost_total"), "no holder lost a claim");
        assertEquals(all.size(), (int) sum("leasehold_attempts_total"), "one attempt per item");
    }

    /** Notes the furthest reading behind and ahead of the test's clock among this round's claims; answers all so far. */
    private Map<String, Duration> lookAtReadings(List<String> ids, Map<String, Duration> skews) {
        Instant now = Instant.now();
        for (String name : spool.names("claimed")) {
            ClaimName claim = ClaimName.parse(name).orElse(null);
            if (claim == null || !ids.contains(claim.id())) {
                continue;
            }
            Duration skew = Duration.between(now, claim.reading());
            if (skew.compareTo(Duration.ofMinutes(-30)) < 0) {
                skews.merge("behind", skew, (a, b) -> a.compareTo(b) <= 0 ? a : b);
            } else if (skew.compareTo(Duration.ofMinutes(5)) > 0) {
                skews.merge("ahead", skew, (a, b) -> a.compareTo(b) >= 0 ? a : b);
            } else {
                skews.putIfAbsent("true", skew);
            }
        }
        return new LinkedHashMap<>(skews);
    }

    private Map<String, Long> byInstance(List<String> ids) {
        Map<String, Long> counts = new LinkedHashMap<>();
        spool.runs().stream().filter(r -> r.kind().equals("start") && ids.contains(r.id()))
                .forEach(r -> counts.merge(r.instance(), 1L, Long::sum));
        return counts;
    }

    private double sum(String metric) {
        return instances.all().stream().mapToDouble(p -> p.metric(metric, "")).sum();
    }
}
