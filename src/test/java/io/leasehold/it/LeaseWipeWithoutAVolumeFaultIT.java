package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog;
import io.leasehold.testing.Await;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 24, the Knative form: JetStream spool, and every instance on a spool folder of its own that
 * starts empty (no volume), so no epoch floor outlives the bus's data. Everything NATS holds is wiped
 * under a running holder whose attempts act until stopped, and the next holder is an instance started
 * afterwards that knows nothing of what came before: its epoch must still be higher, and the old
 * holder's acts must end before the new epoch's first.
 */
class LeaseWipeWithoutAVolumeFaultIT {

    static final FencingRig.Timing TIMING = new FencingRig.Timing(Duration.ofSeconds(4), Duration.ofSeconds(1),
            Duration.ofMillis(2500));
    static final Duration SKEW = Duration.ofSeconds(2);

    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();

    /** A pod without a volume: a fresh spool folder for its floor, the items in JetStream. */
    private static Map<String, String> noVolume(FencingRig rig, String name) {
        Path own = rig.acts.file().resolveSibling("pod-" + name + "-" + System.nanoTime());
        try {
            Files.createDirectories(own);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("leasehold.spool.dir", own.toString(), "leasehold.spool.kind", "jetstream",
                "leasehold.spool.jetstream.bucket", "novolume", "leasehold.claim.max-skew", SKEW.toMillis() + "ms");
    }

    @Test
    void epochsGrowAfterAllNatsDataIsWipedUnderAHolderAndTheNextHolderKnowsNothing() {
        FencingRig rig = rigs.start("wipe-no-volume", TIMING);
        long startedMicros = micros(Instant.now());
        ServiceProcess a = rig.serve("a", noVolume(rig, "a")).awaitReady(START);
        Lease first = FencingRig.awaitHeld(a, 0);
        long epoch = first.epoch();
        assertTrue(epoch >= startedMicros, "a new store's epochs start past the clock in microseconds: " + epoch
                + " < " + startedMicros + ":\n" + a.logText());
        assertEquals(201, a.enqueue("before-1", "x").statusCode());
        rig.awaitActUnder(a + " acts under epoch " + epoch, e -> e == epoch);

        FencingRig.awaitRenewal(a);
        rig.cluster.nats.wipeStore();
        long restartedAt = ActLog.nowMillis();
        rig.cluster.nats.restart();
        ServiceProcess c = rig.serve("c", noVolume(rig, "c")).awaitReady(START);
        Lease taken = Await.value("c holds the lease", WITHIN, () -> LeaseCluster.lease(c),
                l -> l != null && l.mode().equals("held"));
        rig.acts.markTake(taken.epoch(), ActLog.nowMillis(), c.name());
        assertTrue(taken.epoch() > epoch, "epoch " + taken.epoch() + " after epoch " + epoch + ": epochs went backwards"
                + rig.story());
        assertTrue(ActLog.nowMillis() - restartedAt >= SKEW.plus(TIMING.duration()).toMillis(),
                "a new store is taken only after max-skew and a full duration");
        assertEquals(201, c.enqueue("after-1", "x").statusCode());
        rig.awaitActUnder(c + " acts under epoch " + taken.epoch(), e -> e == taken.epoch());

        rig.settledFencing("all NATS data wiped under a holder, next holder with no floor", epoch);
        assertEquals(3, a.awaitExit(WITHIN), "the old holder lost its lease:\n" + a.logText());
        System.out.printf("wipe without a volume: epoch %d -> %d, taken %d ms after NATS came back empty%n", epoch,
                taken.epoch(), ActLog.nowMillis() - restartedAt);
        rig.report("all NATS data wiped, no volume");
    }

    private static long micros(Instant at) {
        return at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000;
    }
}
