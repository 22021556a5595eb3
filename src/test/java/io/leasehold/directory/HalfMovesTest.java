package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A look at a file's names is stale by the time it acts: the file may have been renamed from the
 * winning name into the very claim that now looks like the losing half of a pair. Staged here with a
 * look taken before the moves; the loser is removed only while the winner still holds the file.
 */
class HalfMovesTest extends StoreTestBase {


    @Test
    void aStaleLookAtAnEnqueuePairNeverRemovesTheClaimTheItemWasRenamedToMeanwhile() throws IOException {
        Path upload = Files.writeString(layout.file(SpoolFolder.TMP, "enqueue~x~1"), "payload");
        Files.setLastModifiedTime(upload, FileTime.from(clock.now().minusSeconds(60)));
        Path pending = layout.file(SpoolFolder.PENDING, "x");
        Files.createLink(pending, upload);
        FileFacts seen = FileFacts.of(pending).orElseThrow(); // two names: the upload and pending/x

        // Before the look acts: the enqueue unlinks its upload and another instance claims the item.
        Files.delete(upload);
        ClaimName claim = new ClaimName("x", Generation.first(), clock.now());
        Files.move(pending, layout.claimFile(claim));

        HalfMoves.Look look = spool.halfMoves().pending("x", seen, true);
        assertNotEquals(HalfMoves.Verdict.JUNK, look.verdict(), "nothing to report: it moved");
        assertTrue(Files.exists(layout.claimFile(claim)), "the item's only name is kept");
    }

    @Test
    void aStaleLookAtASettlementPairNeverRemovesTheRetrysClaim() throws IOException {
        ClaimName settling = new ClaimName("f", Generation.first(), clock.now());
        Files.writeString(layout.claimFile(settling), "payload");
        Path failed = layout.file(SpoolFolder.FAILED, "f");
        Files.createLink(failed, layout.claimFile(settling));
        FileFacts seen = FileFacts.of(failed).orElseThrow();

        // The settler unlinks its claim, then a retry takes failed/f under a claim of its own.
        Files.delete(layout.claimFile(settling));
        ClaimName retry = new ClaimName("f", Generation.first(), clock.now());
        Files.move(failed, layout.claimFile(retry));

        assertFalse(spool.halfMoves().settledAlone("f", SpoolFolder.FAILED, seen));
        assertEquals(List.of(retry.fileName()), SpoolTree.names(layout, SpoolFolder.CLAIMED));
    }

    @Test
    void aHandBackPairSeenWhileItIsStillThereIsFinishedAndSaysTheAttempt() throws IOException {
        ClaimName handing = new ClaimName("h", Generation.parse("4-abc").orElseThrow(), clock.now());
        Files.writeString(layout.claimFile(handing), "payload");
        Path pending = layout.file(SpoolFolder.PENDING, "h");
        Files.createLink(pending, layout.claimFile(handing));

        HalfMoves.Look look = spool.halfMoves().pending("h", FileFacts.of(pending).orElseThrow(), true);
        assertEquals(HalfMoves.Verdict.CLAIMABLE, look.verdict());
        assertEquals(4, look.handedBackAt());
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.CLAIMED));
        assertEquals(1, FileFacts.of(pending).orElseThrow().links());
    }
}
