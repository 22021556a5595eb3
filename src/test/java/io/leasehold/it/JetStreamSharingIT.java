package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.SharedSpool.Run;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three packaged instances share a JetStream spool, with no shared folder between them but the work
 * log: one is SIGKILLed and another SIGSTOPped past its claim lease while they hold long items, and the
 * nats-server is restarted mid-drain. Every item ends done, once, seen through the API; the long items
 * run again only as takeovers by another instance; every other item runs exactly once at attempt 1, or
 * again at attempt 1 only after it was handed back as the controller lease's epoch it ran under lapsed.
 */
class JetStreamSharingIT {

    private static final int NORMAL_ITEMS = 40;
    /** Attempt 1 of a long item outlives the freeze; everything else is 0.2-0.8 s of work. */
    private static final String WORK = String.join("\n",
            "case \"$LEASEHOLD_ITEM_ID:$LEASEHOLD_ATTEMPT\" in",
            "  long-*:1) sleep 30 ;;",
            "  long-*) sleep 1 ;;",
            "  *) n=${LEASEHOLD_ITEM_ID#*-}; set -- 0.2 0.4 0.6 0.8; shift $((n % 4)); sleep \"$1\" ;;",
            "esac");

    @RegisterExtension
    final Instances instances = new Instances();
    private NatsServer nats;
    private SharedSpool log;

    @BeforeEach
    void startNats() {
        nats = NatsServer.start();
    }

    @AfterEach
    void stopNats() {
        if (log != null) {
            log.killLeftoverAttempts();
        }
        nats.close();
    }

    private ServiceProcess start(String name) {
        ServiceProcess process = ServiceProcess.start(name, log.config(Map.of(
                "leasehold.spool.kind", "jetstream",
                "leasehold.spool.jetstream.bucket", "sharing",
                "leasehold.nats.url", nats.url(),
                "leasehold.claim.lease", "3s",
                "leasehold.claim.renewals-per-lease", "3",
                "leasehold.drain.poll-interval", "1s",
                "leasehold.drain.concurrency", "2",
                "leasehold.drain.max-attempts", "5")), log.env(name));
        instances.add(process);
        return process;
    }

    private List<String> longStartedBy(String instance) {
        return log.runs().stream().filter(r -> r.kind().equals("start") && r.id().startsWith("long-")
                && r.attempt() == 1 && r.instance().equals(instance)).map(Run::id).toList();
    }

    /** The item's state by the API; a 503 while NATS restarts is an answer too ("not now"), not a failure. */
    private static String state(ServiceProcess on, String id) {
        var answer = on.request("/items/" + id, b -> b.GET());
        if (answer.statusCode() == 503) {
            return "unavailable";
        }
        assertEquals(200, answer.statusCode(), answer.body());
        String body = answer.body();
        return body.contains("\"state\":\"done\"") ? "done" : body.contains("\"state\":\"failed\"") ? "failed" : body;
    }

    @Test
    void killedAndFrozenHoldersAndAServerRestartLoseNothingAndNothingRunsTwiceButTakeovers() {
        log = instances.on(SharedSpool.create("jetstream-sharing", WORK));
        ServiceProcess killed = start("i1").awaitReady(Duration.ofSeconds(60));
        ServiceProcess frozen = start("i2").awaitReady(Duration.ofSeconds(60));
        List<String> longIds = List.of("long-1", "long-2", "long-3", "long-4");
        longIds.forEach(id -> assertEquals(201, killed.enqueue(id, "payload of " + id).statusCode()));
        Await.until("i1 and i2 each run two long items", Duration.ofSeconds(30),
                () -> longStartedBy("i1").size() == 2 && longStartedBy("i2").size() == 2);

        ServiceProcess survivor = start("i3").awaitReady(Duration.ofSeconds(60));
        List<String> normalIds = IntStream.rangeClosed(1, NORMAL_ITEMS).mapToObj(n -> "item-" + n).toList();
        normalIds.forEach(id -> assertEquals(201, survivor.enqueue(id, "payload of " + id).statusCode()));
        assertEquals(409, survivor.enqueue("item-1", "again").statusCode(), "a known id, whoever holds it");

        killed.kill();
        assertEquals(137, killed.awaitExit(Duration.ofSeconds(10)), "SIGKILL ends i1");
        frozen.freeze();
        List<String> frozenHeld = longStartedBy("i2");
        Await.until("i2's long items taken over as attempt 2", Duration.ofSeconds(60),
                () -> frozenHeld.stream().allMatch(id -> log.runs("start", id).stream().anyMatch(r -> r.attempt() == 2)));
        frozen.resume();

        Await.until("half the items done", Duration.ofSeconds(60),
                () -> log.runs().stream().filter(r -> r.kind().equals("end")).count() >= NORMAL_ITEMS / 2);
        nats.restart(); // same port, same store: the connections come back, nothing is lost
        Await.until("every item done", Duration.ofMinutes(3), () -> {
            List<String> all = new ArrayList<>(longIds);
            all.addAll(normalIds);
            return all.stream().allMatch(id -> state(survivor, id).equals("done"));
        });

        // The killed instance may hold the controller lease: those acting beside it under its epoch stop when
        // no renewal of it is seen (issue 24) and hand their items back uncounted, which then run again.
        java.util.Set<String> lapsed = new java.util.HashSet<>();
        java.util.regex.Matcher handedBack = java.util.regex.Pattern.compile(
                "handed (\\S+) back to pending/ as the epoch it ran under lapsed")
                .matcher(killed.logText() + frozen.logText() + survivor.logText());
        while (handedBack.find()) {
            lapsed.add(handedBack.group(1));
        }
        for (String id : normalIds) {
            List<Run> starts = log.runs("start", id);
            if (!lapsed.contains(id)) {
                assertEquals(1, starts.size(), id + " ran exactly once: " + starts);
            }
            assertTrue(starts.stream().allMatch(r -> r.attempt() == 1), id + " never counted an attempt: " + starts);
            int ends = log.runs("end", id).size();
            if (lapsed.contains(id)) {
                // A run stopped as its epoch lapsed ends only if its work was over by then (its settlement then
                // refused: a full suite saw item-31 end twice); the last run always ends.
                assertTrue(ends >= 1 && ends <= starts.size(), id + " (its epoch lapsed) ended " + ends
                        + " times in " + starts.size() + " runs");
            } else {
                assertEquals(1, ends, id + " ended once");
            }
        }
        for (String id : longIds) {
            List<Run> starts = log.runs("start", id);
            assertEquals(List.of(1, 2), starts.stream().map(Run::attempt).toList(),
                    id + " ran again only as a takeover: " + starts);
            assertNotEquals(starts.get(0).instance(), starts.get(1).instance(), id + " taken over by another");
            assertNotEquals("i1", starts.get(1).instance(), "i1 is dead");
        }
        assertTrue(survivor.get("/spool").contains("\"failed\":0"), survivor.get("/spool"));
    }
}
