package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.Staleness;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.StagedBatch;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.SharedNatsServer;
import java.io.OutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A JetStream batch's memory bound and rollback, seen in the ledger and the object store themselves: the
 * API contract ({@code BatchEnqueueContract}) shows the same batches answer alike on both backends.
 */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class JetStreamStagedBatchTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private String bucket;
    private static final int SIZE = 15_000;
    private final DrivenClock clock = new DrivenClock();
    private InstanceRig rig;

    @BeforeEach
    void open() throws Exception {
        bucket = "staged-" + ProcessHandle.current().pid() + "-" + ++buckets;
        rig = InstanceRig.open(NATS.server().url(), bucket, 64 * 1024, clock, "a");
    }

    @AfterEach
    void close() throws InterruptedException {
        rig.close();
    }

    private static byte[] payload(int i) {
        return ("item " + i + " ").repeat(SIZE).substring(0, SIZE).getBytes(StandardCharsets.US_ASCII);
    }

    private static void line(StagedBatch batch, int line, String id, byte[] payload) throws Exception {
        try (OutputStream out = batch.payload(line, id)) {
            out.write(payload);
        }
        batch.item(line, id);
    }

    private List<String> objects() throws Exception {
        return rig.payloads.names();
    }

    @Test
    void payloadsPastTheInlineBudgetAreStoredAsObjectsAndEveryItemKeepsItsBytes() throws Exception {
        int n = 300;
        try (StagedBatch batch = rig.store.stageBatch(64 * 1024)) {
            for (int i = 0; i < n; i++) {
                line(batch, i + 1, "b" + i, payload(i));
            }
            assertEquals(n, batch.commit().size());
        }
        int inline = (int) (JetStreamStagedBatch.INLINE_BUDGET / (4 * ((SIZE + 2) / 3))); // counted as base64
        for (int i = 0; i < n; i++) {
            LedgerEntry entry = rig.ledger.read("b" + i).orElseThrow().entry();
            assertTrue(entry.pending(), "b" + i + " " + entry.state());
            assertEquals(i < inline, entry.inline() != null, "b" + i + ": inline while the budget lasts, then an object");
            byte[] stored = entry.inline() != null ? entry.inlinePayload().orElseThrow()
                    : rig.payloads.get(entry.payload());
            assertArrayEquals(payload(i), stored, "b" + i);
        }
        assertEquals(n - inline, objects().size());
    }

    @Test
    void aKnownIdAfterTheBudgetSpilledRollsBackEveryEntryAndObjectOfTheBatch() throws Exception {
        Ledger.Seen known = rig.ledger.created("r299", LedgerEntry.enqueued(clock.now(), null)).orElseThrow();
        StagedBatch batch = rig.store.stageBatch(64 * 1024);
        ItemStore.DuplicateItemException refused = assertThrows(ItemStore.DuplicateItemException.class, () -> {
            for (int i = 0; i < 300; i++) {
                line(batch, i + 1, "r" + i, payload(i));
            }
            batch.commit();
        });
        assertEquals(300, refused.line());
        batch.close();
        for (int i = 0; i < 299; i++) {
            assertEquals(Optional.empty(), rig.ledger.read("r" + i), "r" + i);
        }
        assertEquals(Optional.of(known), rig.ledger.read("r299"), "the known item is untouched");
        assertEquals(List.of(), objects(), "the spilled payloads are gone with their entries");
    }

    @Test
    void aBatchClosedWithItsCreatesStillInFlightLeavesNothing() throws Exception {
        StagedBatch batch = rig.store.stageBatch(64 * 1024);
        for (int i = 0; i < 200; i++) {
            line(batch, i + 1, "f" + i, payload(i)); // fewer than a window: none of their answers awaited yet
        }
        batch.close(); // the request broke off before its end
        for (int i = 0; i < 200; i++) {
            assertEquals(Optional.empty(), rig.ledger.read("f" + i), "f" + i);
        }
    }

    @Test
    void aBatchStagedLongerThanHalfOfTmpMaxAgeIsRefusedAtItsCommitAndLeavesNothing() throws Exception {
        StagedBatch batch = rig.store.stageBatch(64 * 1024);
        for (int i = 0; i < 3; i++) {
            line(batch, i + 1, "s" + i, payload(i));
        }
        // A slow sender: past half of tmp-max-age another instance's housekeeping may take it for a dead one's.
        clock.pass(InstanceRig.TMP_MAX_AGE.dividedBy(2).plusSeconds(1));
        IOException refused = assertThrows(ItemStore.SpoolUnavailableException.class, batch::commit);
        assertTrue(refused.getMessage().contains("send it again"), refused.getMessage());
        batch.close();
        for (int i = 0; i < 3; i++) {
            assertEquals(Optional.empty(), rig.ledger.read("s" + i), "s" + i);
        }
        assertEquals(Optional.empty(), rig.ledger.readRaw(BatchMarkers.key(batchOf(batch))), "no marker was written");
    }

    /**
     * Clocks further apart than the guard allows: an instance whose clock is hours ahead finds the batch's
     * staged entries older than tmp-max-age, with no marker, and takes them back while the batch still
     * stages (once they stood still for the quiet span: a maker stalled that long). The commit must not answer 201 for items that are gone: it names them and removes its marker.
     */
    @Test
    void itemsASkewedInstancesHousekeepingTookBackBeforeTheMarkerFailTheCommitByName() throws Exception {
        DrivenClock ahead = new DrivenClock();
        ahead.set(clock.now().plus(Duration.ofHours(2)));
        try (InstanceRig skewed = InstanceRig.open(NATS.server().url(), bucket, 64 * 1024, ahead, "b")) {
            StagedBatch batch = rig.store.stageBatch(64 * 1024);
            line(batch, 1, "k0", payload(0));
            line(batch, 2, "k1", payload(1));
            batch.refusedSoFar(); // both creates have landed
            int[] takenBack = {0};
            Await.until("the skewed instance's housekeeping takes both staged items back", Duration.ofSeconds(20),
                    () -> {
                        try {
                            takenBack[0] += skewed.store.recover(new Staleness(ahead.now().minus(
                                    InstanceRig.TMP_MAX_AGE), Duration.ofSeconds(30)));
                            ahead.advance(Duration.ofSeconds(10)); // the batch stands still: quiet in time
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                        return takenBack[0] == 2;
                    });
            IOException failed = assertThrows(IOException.class, batch::commit);
            assertTrue(failed.getMessage().contains("taken back by housekeeping") && failed.getMessage().contains("k0")
                    && failed.getMessage().contains("k1"), failed.getMessage());
            batch.close();
            assertEquals(Optional.empty(), rig.ledger.read("k0"));
            assertEquals(Optional.empty(), rig.ledger.read("k1"));
            assertEquals(Optional.empty(), rig.ledger.readRaw(BatchMarkers.key(batchOf(batch))),
                    "the marker goes with the failed commit");
        }
    }

    private static String batchOf(StagedBatch batch) {
        return ((JetStreamStagedBatch) batch).name();
    }
}
