package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemStore;
import io.leasehold.testing.OwnThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Bookkeeping is written and removed only by the claim it belongs to: a retry or a cancel racing a
 * drain that claims the item at once never removes what that drain's claim recorded. Many trials,
 * each with a thread that claims the item the moment it can, as a drain watching pending/ does.
 */
class RecordOwnershipTest extends StoreTestBase {

    private static final int TRIALS = 300;
    private static final AttemptRecord FRESH = new AttemptRecord(AttemptRecord.Kind.FAILED, 0, "exit 2: fresh failure");


    /** Claims {@code id} as soon as it is claimable and records a fast failure, as a drain would. */
    private CompletableFuture<Optional<ClaimName>> drainClaimsAtOnce(String id) {
        return CompletableFuture.supplyAsync(() -> {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            try {
                while (System.nanoTime() < end) {
                    Optional<ClaimName> claim = spool.claim(id, clock.now());
                    if (claim.isPresent()) {
                        spool.writeRecord(id, claim.get().generation(), FRESH);
                        return claim;
                    }
                    if (finished.equals(id) && !Files.exists(layout.file(SpoolFolder.PENDING, id))) {
                        return Optional.empty(); // the API call is over and left nothing to claim
                    }
                    Thread.onSpinWait();
                }
                return Optional.empty();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, OwnThreads.EACH);
    }

    /** Set once the API call of the trial returned: then a drain that finds nothing gives up. */
    private volatile String finished = "";

    @Test
    void aRetryNeverRemovesTheRecordOfTheClaimThatTookTheItemRightAfter() throws Exception {
        for (int t = 0; t < TRIALS; t++) {
            String id = "r" + t;
            Files.writeString(layout.file(SpoolFolder.FAILED, id), "payload");
            spool.writeRecord(id, Generation.parse("3-old").orElseThrow(),
                    new AttemptRecord(AttemptRecord.Kind.FAILED, 2, "the earlier failure"));
            CompletableFuture<Optional<ClaimName>> drain = drainClaimsAtOnce(id);
            store.retry(id);
            finished = id;
            ClaimName claim = drain.get(10, TimeUnit.SECONDS).orElseThrow(() -> new AssertionError(id + " not claimed"));
            assertEquals(1, claim.generation().attempt(), "a retried item's attempts are counted afresh");
            assertEquals(Optional.of(FRESH), spool.record(id, claim.generation()), id + ": the fresh record is kept");
        }
    }

    @Test
    void aCancelRacingAClaimEitherCancelsOrLeavesTheClaimAndItsRecordAlone() throws Exception {
        int cancelled = 0;
        for (int t = 0; t < TRIALS; t++) {
            String id = "c" + t;
            Files.writeString(layout.file(SpoolFolder.PENDING, id), "payload");
            CompletableFuture<Optional<ClaimName>> drain = drainClaimsAtOnce(id);
            boolean won;
            try {
                store.cancel(id);
                won = true;
            } catch (ItemStore.WrongStateException e) {
                won = false;
            }
            finished = id;
            Optional<ClaimName> claim = drain.get(10, TimeUnit.SECONDS);
            if (won) {
                cancelled++;
                assertTrue(claim.isEmpty(), id + " was cancelled and claimed");
                assertEquals("cancelled", store.lookup(id).orElseThrow().reason());
            } else {
                assertEquals(Optional.of(FRESH), spool.record(id, claim.orElseThrow().generation()), id);
            }
        }
        System.out.printf("RecordOwnershipTest: the cancel won %d of %d races%n", cancelled, TRIALS);
    }
}
