package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Outcome;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.testing.Await;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hostile files and refusing receivers at the edges of an attempt, with time driven by the test. */
class DrainEdgeTest extends SpoolTestBase {

    @Test
    void aDroppedInPayloadLargerThanTheHeapFailsWithItsSizeAndTheLimitWithoutBeingRead() throws IOException {
        // Sparse: far bigger than the heap, and it costs no disk.
        long size = Runtime.getRuntime().maxMemory() + 1;
        Path tmp = layout.file(SpoolFolder.TMP, "huge.writing");
        try (RandomAccessFile file = new RandomAccessFile(tmp.toFile(), "rw")) {
            file.setLength(size);
        }
        Files.move(tmp, layout.file(SpoolFolder.PENDING, "huge"));

        Instance instance = instance(T0, 5, true);
        instance.poll();
        // The settled event comes after the whole move (a link into failed/, then the claim's unlink).
        Await.until("huge is failed", WAIT, () -> instance.events.count("settled:huge:failed") == 1);
        assertTrue(settledIn(SpoolFolder.FAILED, "huge"));
        assertEquals("the payload of huge is " + size + " bytes, more than the limit of 1048576 bytes"
                + " (leasehold.item.max-bytes)", reason(instance, "huge"));
        assertTrue(instance.handler.started.isEmpty(), "never sent to a handler");
        assertEquals(size, Files.size(layout.file(SpoolFolder.FAILED, "huge")), "payload kept");
        assertEquals(0, instance.drainer.claimsHeld());
        assertTrue(claims().isEmpty());
    }

    @Test
    void aReceiverRefusingTheEpochCountsAnAttemptWithBackoffAndFailsAfterMaxAttempts() throws IOException {
        Instance instance = instance(T0, 3, true);
        enqueue("refused");
        instance.poll();
        for (int attempt = 1; attempt <= 3; attempt++) {
            instance.handler.awaitStarted("refused", attempt);
            instance.handler.finish("refused", Outcome.stale("receiver refused epoch 7 as stale (HTTP 409)"));
            if (attempt == 3) {
                break;
            }
            int finished = attempt;
            Await.until("parked for a retry", WAIT, () -> instance.events.count("settled:refused:retried") == finished);
            List<ClaimName> claims = claims();
            assertEquals(1, claims.size(), "parked, not handed back: " + claims);
            assertEquals(attempt, claims.get(0).generation().attempt());
            Instant retryAt = Instance.TERMS.takeableAt(claims.get(0));
            long backoffCeiling = 1000L << (attempt - 1);
            Instant now = instance.clock.now();
            assertTrue(!retryAt.isBefore(now.plusMillis(backoffCeiling / 2)) && !retryAt.isAfter(now.plusMillis(
                    backoffCeiling)), "backoff after attempt " + attempt + ": " + retryAt);
            instance.clock.set(retryAt.minusMillis(1));
            instance.poll();
            assertEquals(attempt, instance.handler.startedAttempts("refused").size(), "not before the backoff");
            instance.clock.set(retryAt);
            instance.poll();
        }
        // The settled event comes after the whole move (a link into failed/, then the claim's unlink).
        Await.until("failed after max attempts", WAIT, () -> instance.events.count("settled:refused:failed") == 1);
        assertTrue(settledIn(SpoolFolder.FAILED, "refused"));
        assertEquals("refused as stale 3 times", reason(instance, "refused"));
        assertEquals(List.of(1, 2, 3), instance.handler.startedAttempts("refused"));
        assertTrue(claims().isEmpty());
        assertTrue(!settledIn(SpoolFolder.PENDING, "refused"), "never handed back to pending/");
    }

    @Test
    void aClaimWhoseFileIsLinkedFromElsewhereIsLeftAloneReportedAndNeverTakenOverAgain() throws IOException {
        Path outside = dir.resolve("outside");
        Instance holder = new Instance(layout, T0, 5, true, ArrivalWatch.NONE, real -> {
            FaultySpool spool = new FaultySpool(real);
            // Someone links the claim's file from outside the spool the moment it is claimed.
            spool.afterClaim = claim -> Files.createLink(outside, layout.claimFile(claim));
            return spool;
        });
        instances.add(holder);
        enqueue("linked", "secret");
        holder.poll();
        Await.until("reported", WAIT, () -> holder.anomalies.list().stream()
                .anyMatch(a -> a.folder().equals("claimed") && a.name().startsWith("linked~")));
        Await.until("let go", WAIT, () -> holder.drainer.claimsHeld() == 0);
        ClaimName left = claims().get(0);
        assertTrue(holder.anomalies.list().get(0).problem().contains("2 names"), holder.anomalies.list().toString());

        // Leases pass, both instances renew and poll over and over: nobody renames, reads or runs it.
        Instance other = instance(T0);
        for (int step = 0; step < 10; step++) {
            holder.clock.advance(Duration.ofSeconds(40));
            other.clock.advance(Duration.ofSeconds(40));
            holder.poll();
            other.poll();
        }
        assertEquals(List.of(left), claims(), "left under the name every instance knows");
        assertTrue(holder.handler.started.isEmpty() && other.handler.started.isEmpty(), "never sent to a handler");
        assertEquals(0, holder.events.count("tookOver:linked:2") + other.events.count("tookOver:linked:2"));
        assertEquals(1, other.anomalies.list().size(), "the other instance reports it too: " + other.anomalies.list());
        holder.spool.forgetFixedJunk();
        assertEquals(1, holder.anomalies.list().size(), "still junk at housekeeping");
        assertEquals("secret", Files.readString(outside));
    }

    @Test
    void junkUnderAnExpiredClaimNameIsNeverTakenOverOrRead() throws Exception {
        Path outside = Files.writeString(dir.resolve("outside-secret"), "not an item");
        ClaimName symlink = ClaimName.parse("sym~1-abc~20261130T150000.000Z").orElseThrow();
        ClaimName fifo = ClaimName.parse("pipe~1-abc~20261130T150000.000Z").orElseThrow();
        Files.createSymbolicLink(layout.claimFile(symlink), outside);
        Process mkfifo = new ProcessBuilder("mkfifo", layout.claimFile(fifo).toString()).inheritIO().start();
        assertTrue(mkfifo.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && mkfifo.exitValue() == 0);

        Instance instance = instance(T0.plus(Instance.TAKEABLE_AFTER).plusSeconds(1));
        for (int poll = 0; poll < 5; poll++) {
            instance.poll();
        }
        assertEquals(List.of("claimed/pipe~1-abc~20261130T150000.000Z", "claimed/sym~1-abc~20261130T150000.000Z"),
                instance.anomalies.list().stream().map(a -> a.folder() + "/" + a.name()).sorted().toList());
        assertTrue(instance.handler.started.isEmpty());
        assertEquals(0, instance.drainer.claimsHeld());
        assertTrue(Files.isSymbolicLink(layout.claimFile(symlink)), "left where it was");
        assertTrue(Files.exists(layout.claimFile(fifo), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertEquals("not an item", Files.readString(outside));
    }
}
