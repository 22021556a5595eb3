package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.SharedSpool.Run;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three packaged instances drain one spool while one is SIGKILLed and another SIGSTOPped past its
 * lease (docs/protocol.md guarantees). Four "long" items are handed out first to two instances only
 * (two each, their whole concurrency), so which claims the killed and the frozen instance hold is
 * known, and everything else is run by instances that are never disturbed.
 */
class SpoolSharingIT {

    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration MAX_SKEW = Duration.ofMillis(500);
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final int NORMAL_ITEMS = 56;
    private static final DateTimeFormatter READING =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
    /**
     * Attempt 1 of a long item outlives any freeze; its takeover works 2 s, long enough for the test
     * to see its claim name; everything else is 0.3-1.5 s of work.
     */
    private static final String WORK = String.join("\n",
            "case \"$LEASEHOLD_ITEM_ID:$LEASEHOLD_ATTEMPT\" in",
            "  long-*:1) sleep 30 ;;",
            "  long-*) sleep 2 ;;",
            "  *) n=${LEASEHOLD_ITEM_ID#*-}; set -- 0.3 0.5 0.7 0.9 1.1 1.3 1.5; shift $((n % 7)); sleep \"$1\" ;;",
            "esac");

    @RegisterExtension
    final Instances instances = new Instances();
    private SharedSpool spool;

    private ServiceProcess start(String name) {
        ServiceProcess process = ServiceProcess.start(name, spool.config(Map.of(
                "leasehold.claim.lease", "3s",
                "leasehold.claim.renewals-per-lease", "3",
                "leasehold.claim.max-skew", "500ms",
                "leasehold.drain.poll-interval", "1s",
                "leasehold.drain.concurrency", "2",
                "leasehold.drain.max-attempts", "5")), spool.env(name));
        instances.add(process);
        return process;
    }

    @Test
    void killedAndFrozenHoldersLoseNothingAndNothingRunsTwiceExceptTakeovers() {
        spool = instances.on(SharedSpool.create("sharing", WORK));
        ServiceProcess killed = start("i1");
        ServiceProcess frozen = start("i2");
        killed.awaitReady(Duration.ofSeconds(60));
        frozen.awaitReady(Duration.ofSeconds(60));
        List<String> longIds = List.of("long-1", "long-2", "long-3", "long-4");
        longIds.forEach(id -> spool.enqueue(id, "payload of " + id));
        Await.until("i1 and i2 each run two long items", Duration.ofSeconds(30),
                () -> longStartedBy("i1").size() == 2 && longStartedBy("i2").size() == 2);

        ServiceProcess survivor = start("i3").awaitReady(Duration.ofSeconds(60));
        List<String> normalIds = IntStream.rangeClosed(1, NORMAL_ITEMS).mapToObj(n -> "item-" + n).toList();
        normalIds.forEach(id -> spool.enqueue(id, "payload of " + id));
        Await.until("i3 works on new items", Duration.ofSeconds(30),
                () -> spool.runs().stream().anyMatch(r -> r.instance().equals("i3")));

        List<String> killedHeld = longStartedBy("i1");
        // Looked at until seen: a listing may miss a name that i1's renewal is renaming right then.
        killedHeld.forEach(id -> Await.until("i1 holds " + id, Duration.ofSeconds(5),
                () -> spool.claims(id, 1).size() == 1));
        killed.kill();
        assertEquals(137, killed.awaitExit(Duration.ofSeconds(10)), "SIGKILL ends i1");

        List<String> frozenHeld = longStartedBy("i2");
        frozen.freeze();
        long frozenAt = System.nanoTime();
        Instant frozenAtWall = Instant.now();
        List<Instant> lastReadings = new ArrayList<>();
        for (String id : frozenHeld) {
            List<String> held = spool.claims(id, 1);
            assertEquals(1, held.size(), "i2 holds " + id + " when frozen: " + spool.names("claimed"));
            lastReadings.add(reading(held.get(0)));
        }
        // Frozen until both claims run again under a new generation (attempt 2): the name is the proof.
        List<Instant> takeoverReadings = new ArrayList<>(List.of(Instant.MIN, Instant.MIN));
        Await.until("i2's claims taken over by attempt 2", Duration.ofSeconds(60), () -> {
            for (int i = 0; i < frozenHeld.size(); i++) {
                List<String> taken = spool.claims(frozenHeld.get(i), 2);
                if (takeoverReadings.get(i).equals(Instant.MIN) && !taken.isEmpty()) {
                    takeoverReadings.set(i, reading(taken.get(0)));
                }
            }
            return !takeoverReadings.contains(Instant.MIN);
        });
        Duration frozenFor = Duration.ofNanos(System.nanoTime() - frozenAt);
        frozen.resume();
        for (int i = 0; i < frozenHeld.size(); i++) {
            Duration unrenewed = Duration.between(lastReadings.get(i), takeoverReadings.get(i));
            assertTrue(takeoverReadings.get(i).isAfter(frozenAtWall), "taken over while i2 was stopped");
            assertTrue(unrenewed.compareTo(LEASE.plus(MAX_SKEW)) >= 0,
                    frozenHeld.get(i) + " was taken over only " + unrenewed + " after its last renewal");
            // Contract: within lease + max-skew + poll-interval when an instance has room; i3 gets
            // room within one item's work (at most 1.5 s), plus slack for a loaded machine.
            assertTrue(unrenewed.compareTo(LEASE.plus(MAX_SKEW).plus(POLL).plus(Duration.ofSeconds(5))) <= 0,
                    frozenHeld.get(i) + " waited " + unrenewed + " to be taken over");
        }

        // Resumed, i2 finds both claims gone at its next renewal, stops their work and settles nothing.
        Await.until("i2 reports its two claims lost", Duration.ofSeconds(30),
                () -> frozen.metric("leasehold_claims_lost_total", "") == 2.0);
        for (String id : frozenHeld) {
            long pid = spool.runs("start", id).get(0).pid();
            Await.until("i2's handler process for " + id + " is killed", Duration.ofSeconds(10),
                    () -> ServiceProcess.hasEnded(pid));
            assertTrue(frozen.logText().contains("claim " + id + "~1-"), "i2's log names the lost claim of " + id);
        }
        assertTrue(frozen.logText().contains("was taken over by another instance"), frozen.logText());

        Await.until("pending/ and claimed/ are empty", Duration.ofMinutes(3),
                () -> spool.names("pending").isEmpty() && spool.names("claimed").isEmpty());

        List<String> all = new ArrayList<>(longIds);
        all.addAll(normalIds);
        assertEquals(new TreeSet<>(all), spool.names("done"), "every item is done, once, nothing else is");
        assertEquals(new TreeSet<>(), spool.names("failed"));
        assertEquals(new TreeSet<>(), spool.names("reasons"), "a done item keeps no reason");
        // A done item keeps the record of its attempts only when it has a history before its last one:
        // here the items taken over; the others were done at their first claim.
        assertEquals(new TreeSet<>(longIds), spool.names("attempts"), "records of the taken-over items only");
        all.forEach(id -> assertEquals("payload of " + id, spool.payload("done", id), "payload kept"));

        for (String id : normalIds) {
            List<Run> starts = spool.runs("start", id);
            assertEquals(1, starts.size(), id + " ran exactly once: " + starts);
            assertEquals(1, starts.get(0).attempt());
            assertNotEquals("i1", starts.get(0).instance(), "i1 never had room for " + id);
            assertEquals(1, spool.runs("end", id).size(), id + " ended once");
        }
        for (String id : longIds) {
            List<Run> starts = spool.runs("start", id);
            assertEquals(List.of(1, 2), starts.stream().map(Run::attempt).toList(),
                    id + " ran again only as a takeover: " + starts);
            String holder = starts.get(0).instance();
            assertTrue(holder.equals("i1") || holder.equals("i2"), id + " first held by " + holder);
            assertNotEquals(holder, starts.get(1).instance(), id + " taken over by another instance");
            assertNotEquals("i1", starts.get(1).instance());
            List<Run> ends = spool.runs("end", id);
            assertTrue(ends.stream().anyMatch(r -> r.attempt() == 2), id + " attempt 2 finished: " + ends);
            if (holder.equals("i2")) {
                assertEquals(List.of(2), ends.stream().map(Run::attempt).toList(),
                        "i2's attempt 1 of " + id + " was killed before it could finish");
            }
        }

        // Every handler outcome on the instances still alive: each item done once, i2's two lost.
        double done = frozen.metric("leasehold_attempts_total", "outcome=\"done\"")
                + survivor.metric("leasehold_attempts_total", "outcome=\"done\"");
        assertEquals(all.size(), done, 0.0, "no item was worked to success twice");
        assertEquals(2.0, frozen.metric("leasehold_attempts_total", "outcome=\"lost\""));
        assertEquals(4.0, frozen.metric("leasehold_takeovers_total", "")
                + survivor.metric("leasehold_takeovers_total", ""), "each disturbed claim taken over once");
        System.out.printf("SpoolSharingIT: i2 frozen %s; takeovers after last renewal: %s%n", frozenFor,
                IntStream.range(0, 2).mapToObj(i -> Duration.between(lastReadings.get(i), takeoverReadings.get(i)))
                        .toList());
    }

    private List<String> longStartedBy(String instance) {
        return spool.runs().stream()
                .filter(r -> r.kind().equals("start") && r.id().startsWith("long-") && r.instance().equals(instance))
                .map(Run::id).toList();
    }

    private static Instant reading(String claimName) {
        return Instant.from(READING.parse(claimName.substring(claimName.lastIndexOf('~') + 1)));
    }
}
