package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.SharedSpool.Run;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 8, scenario 2: uploads that stall mid-body must not starve claim renewal. Instance a holds a
 * long attempt while 250 clients start uploads and then send nothing more; instance b is ready to take
 * the claim over the moment a's renewals let it expire. The claim must survive: one run, attempt 1. And a
 * fires a schedule every second throughout (b has none): each fire time of the stall has its item, as the
 * schedules tick on a thread of their own, not on the workers the uploads hold.
 */
class StarvedWorkersIT {

    private static final int STALLED = 250;

    @RegisterExtension
    final Instances instances = new Instances();
    private final List<Socket> clients = new ArrayList<>();
    private SharedSpool spool;

    @AfterEach
    void closeClients() {
        RawClients.closeAll(clients);
    }

    private ServiceProcess start(String name, Map<String, String> more) {
        Map<String, String> config = new java.util.HashMap<>(more);
        config.putAll(Map.of(
                "leasehold.claim.lease", "6s",
                "leasehold.claim.max-skew", "1s",
                "leasehold.drain.poll-interval", "1s",
                "leasehold.drain.concurrency", "1",
                "leasehold.item.max-uploads", "32",
                "leasehold.item.upload-timeout", "5s",
                "quarkus.http.read-timeout", "3s"));
        ServiceProcess p = ServiceProcess.start(name, spool.config(config), spool.env(name));
        instances.add(p);
        return p.awaitReady(Duration.ofSeconds(60));
    }

    /**
     * The schedule's items anywhere in the spool, by id. Three listings: b renews its claims meanwhile, and a
     * readdir racing a rename in its folder can miss that entry once (as the spool's own looks allow for).
     */
    private java.util.Set<String> madeBeats() {
        java.util.Set<String> made = new java.util.HashSet<>();
        for (int look = 0; look < 3; look++) {
            for (String folder : List.of("pending", "claimed", "done", "failed")) {
                spool.names(folder).stream().map(n -> n.split("~")[0]).filter(id -> id.startsWith("beat."))
                        .forEach(made::add);
            }
        }
        return made;
    }

    @Test
    void stalledUploadsNeitherStarveRenewalsNorHoldThreadsUnbounded() throws Exception {
        spool = instances.on(SharedSpool.create("starved", "sleep 14"));
        ServiceProcess a = start("a", Map.of("leasehold.schedules.beat.every", "1s"));
        spool.enqueue("slow", "slow");
        Await.until("a runs the item", Duration.ofSeconds(20), () -> !spool.runs("start", "slow").isEmpty());
        // A schedule starts at its first tick, with no backfill: the stall's fire times are all after it.
        Await.until("a fires its schedule", Duration.ofSeconds(20), () -> madeBeats().size() >= 2);

        long renewalsBefore = (long) a.metric("leasehold_renewals_total", "");
        long stallStart = System.nanoTime();
        clients.addAll(RawClients.stall(a.port(), STALLED, "stalled-"));
        List<InputStream> answers = new ArrayList<>();
        for (Socket s : clients) {
            answers.add(s.getInputStream());
        }
        java.time.Instant stalledFrom = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .plusSeconds(1);
        ServiceProcess b = start("b", Map.of());

        Await.until("the item ends", Duration.ofSeconds(60), () -> !spool.runs("end", "slow").isEmpty());
        java.time.Instant stalledTo = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .minusSeconds(1);
        List<String> expected = new ArrayList<>();
        for (java.time.Instant t = stalledFrom; !t.isAfter(stalledTo); t = t.plusSeconds(1)) {
            expected.add(io.leasehold.core.FireTimeIds.of("beat", t));
        }
        assertTrue(expected.size() >= 5, "the stall spans " + expected.size() + " fire times");
        // The last of them may be made a tick after the item ended.
        Await.until("every fire time of the stall has its item", Duration.ofSeconds(10),
                () -> madeBeats().containsAll(expected));
        for (String id : expected) {
            // Made while a's workers were held, not once they were free: its reservation is dated when it was made.
            java.time.Instant made = Files.getLastModifiedTime(spool.spoolDir().resolve("ids").resolve(id),
                    LinkOption.NOFOLLOW_LINKS).toInstant();
            Duration late = Duration.between(io.leasehold.core.FireTimeIds.fireTimeOf(id).orElseThrow(), made);
            assertTrue(late.compareTo(Duration.ofSeconds(5)) < 0, id + " made " + late.toMillis() + " ms after its fire"
                    + " time: the schedule's tick waited on the workers the uploads held");
        }
        List<Run> starts = spool.runs("start", "slow");
        assertEquals(1, starts.size(), "run once, never taken over: " + starts);
        assertEquals("a", starts.get(0).instance());
        assertEquals(1, starts.get(0).attempt());
        Await.until("settled in done/", Duration.ofSeconds(10), () -> spool.names("done").contains("slow"));
        assertEquals(0.0, b.metric("leasehold_takeovers_total", ""), "b never took a live claim");
        assertTrue(a.metric("leasehold_renewals_total", "") - renewalsBefore >= 4,
                "a renewed every 2 s while its workers were busy with stalled uploads");

        // Every stalled upload was answered or cut off within its bound, none accepted.
        int refused = 0;
        int cutOff = 0;
        for (InputStream in : answers) {
            String status = RawClients.statusLine(in);
            if (status.contains(" 503 ")) {
                refused++;
            } else if (status.isEmpty() || status.contains(" 408 ")) {
                cutOff++;
            } else {
                throw new AssertionError("a stalled upload was answered " + status);
            }
        }
        double seconds = (System.nanoTime() - stallStart) / 1e9;
        System.out.printf("stalled uploads: %d refused with 503, %d cut off (408 or closed); all answered when read, %.1f s after the stall began%n",
                refused, cutOff, seconds);
        assertTrue(refused >= STALLED - 32, "beyond leasehold.item.max-uploads an upload is refused at once: "
                + refused + " of " + STALLED);
        assertTrue(spool.names("pending").stream().noneMatch(n -> n.startsWith("stalled-")), "nothing half-uploaded");
    }
}
