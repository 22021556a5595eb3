package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Census;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.SharedSpool.Run;
import io.leasehold.testing.Tmpfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Fault suite, full disk: the spool on a small tmpfs, filled to the last page while items are being
 * worked. Enqueues answer 507 and leave nothing behind; the items at work, one failing and one asking
 * for a retry (both need a reason written, which the full disk refuses), are not lost and settle as
 * their outcomes say once space returns; the service keeps running and drains everything.
 */
class DiskFullFaultIT {

    /** Held items wait for their round's gate; then "fail" exits 3, "retry" asks for a retry once. */
    private static final String WORK = String.join("\n",
            SharedSpool.AWAIT_GATE,
            "case $LEASEHOLD_ITEM_ID:$LEASEHOLD_ATTEMPT in *-fail:*) exit 3 ;; *-retry:1) exit 75 ;; *) sleep 0.2 ;; esac");

    @AutoClose
    private final SoloInstance solo = SoloInstance.create("disk-full", WORK);
    private final SharedSpool spool = solo.spool;
    private ServiceProcess service;

    @Test
    void aFullDiskRefusesEnqueuesWith507AndLosesNothing() throws IOException {
        Tmpfs tmpfs = solo.onTmpfs("8m");
        service = solo.start(List.of());

        List<String> accepted = new ArrayList<>();
        int rounds = FaultRounds.count();
        for (int round = 1; round <= rounds; round++) {
            long started = System.nanoTime();
            String r = "r" + round;
            String fail = r + "-held-fail";
            String retry = r + "-held-retry";
            // The two that need a reason written take both slots, so they are at work when the disk fills.
            enqueue(List.of(fail, retry), accepted);
            Await.until(r + ": fail and retry at work", Duration.ofSeconds(30),
                    () -> !spool.runs("start", fail).isEmpty() && !spool.runs("start", retry).isEmpty());
            List<String> held = IntStream.rangeClosed(1, 4).mapToObj(n -> r + "-held-" + n).toList();
            enqueue(held, accepted);

            Path filler = tmpfs.dir().resolve("filler");
            long filled = tmpfs.fill(filler);
            List<String> refused = IntStream.rangeClosed(1, 5).mapToObj(n -> r + "-refused-" + n).toList();
            for (String id : refused) {
                Answers.assertError(service.enqueue(id, "x".repeat(4096)), 507, "the filesystem of the spool ("
                        + spool.spoolDir() + ") is full: No space left on device; nothing was written, try again once"
                        + " space was freed");
            }
            assertEquals(List.of(), List.copyOf(spool.names("tmp")), "a refused enqueue leaves nothing in tmp/");
            Census whileFull = Census.awaitEachOnce(spool.spoolDir(), accepted, Duration.ofSeconds(20));
            refused.forEach(id -> assertEquals(List.of(), whileFull.states(id), id + " was refused, so it is nowhere"));
            assertEquals(200, service.status("/q/health/live"), "alive on a full disk");

            // The handlers end while the disk is full: their outcomes need reasons/ written. The settlement
            // follows the counted attempt on the same thread.
            spool.openGate(r);
            int ended = round;
            Await.until(r + ": fail and retry attempts ended", Duration.ofSeconds(30),
                    () -> service.metric("leasehold_attempts_total", "outcome=\"failed\"") >= ended
                            && service.metric("leasehold_attempts_total", "outcome=\"retry\"") >= ended);
            Census.awaitEachOnce(spool.spoolDir(), accepted, Duration.ofSeconds(20));

            Files.delete(filler);
            List<String> after = IntStream.rangeClosed(1, 10).mapToObj(n -> r + "-after-" + n).toList();
            enqueue(after, accepted);
            Await.until(r + ": drained", Duration.ofSeconds(90), () -> spool.names("pending").isEmpty()
                    && spool.names("claimed").isEmpty());
            Census census = Census.awaitEachOnce(spool.spoolDir(), accepted, Duration.ofSeconds(20));
            List<String> failed = accepted.stream().filter(id -> id.endsWith("-fail")).sorted().toList();
            assertEquals(failed, census.in("failed"), "only the failing items failed");
            assertEquals(accepted.size() - failed.size(), census.in("done").size(), census.toString());

            List<String> once = new ArrayList<>(held);
            once.addAll(after);
            String reason = Answers.json(service.request("/items/" + fail, b -> b.GET()), 200).path("reason").asText();
            // All reported together: the last three are about outcomes met by a full disk.
            assertAll(
                    () -> assertEquals(200, service.status("/q/health/ready")),
                    () -> assertEquals(Map.of(), spool.notRunOnce(once), "no item run twice or never"),
                    () -> assertEquals(List.of(1), attempts(fail), fail + " ran once: its outcome was kept until it"
                            + " could be settled"),
                    () -> assertEquals(List.of(1, 2), attempts(retry), retry + " ran again only as its retry"),
                    () -> assertTrue(reason.startsWith("exit 3"), fail + " failed for its own reason: " + reason));
            System.out.printf("DiskFullFaultIT round %d/%d: disk filled with %d bytes; %d enqueues answered 507,"
                    + " nothing left; %d items accepted in all, each in one state (%s); %.1f s%n", round, rounds,
                    filled, refused.size(), accepted.size(), census, (System.nanoTime() - started) / 1e9);
        }
    }

    private void enqueue(List<String> ids, List<String> accepted) {
        for (String id : ids) {
            Answers.assertEnqueued(service, id, "payload of " + id);
            accepted.add(id);
        }
    }

    private List<Integer> attempts(String id) {
        return spool.runs("start", id).stream().map(Run::attempt).toList();
    }
}
