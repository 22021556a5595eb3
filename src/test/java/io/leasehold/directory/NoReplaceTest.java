package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** No rename or link ever replaces a file in pending/, done/ or failed/: each move that would is refused. */
class NoReplaceTest extends StoreTestBase {


    private ClaimName claim(String id, String payload) throws IOException {
        ClaimName claim = new ClaimName(id, Generation.first(), clock.now());
        Files.writeString(layout.claimFile(claim), payload);
        return claim;
    }

    private String read(SpoolFolder folder, String id) throws IOException {
        return Files.readString(layout.file(folder, id));
    }

    @Test
    void aSettlementNeverReplacesAFileInDoneOrFailed() throws IOException {
        for (ItemState where : List.of(ItemState.DONE, ItemState.FAILED)) {
            String id = "s-" + where.label();
            Files.writeString(layout.file(SpoolFolder.of(where), id), "the first");
            ClaimName second = claim(id, "a second file under the same id");

            assertThrows(ItemStore.DuplicateItemException.class, () -> spool.settle(second, where));
            assertEquals("the first", read(SpoolFolder.of(where), id));
            assertTrue(Files.exists(layout.claimFile(second)), "the claim stays where it is");
            assertTrue(anomalies.isKnown(SpoolFolder.of(where), id), "reported");
        }
    }

    @Test
    void aHandBackNeverReplacesAPendingFile() throws IOException {
        Files.writeString(layout.file(SpoolFolder.PENDING, "h"), "dropped in meanwhile");
        ClaimName held = claim("h", "the item");

        assertThrows(ItemStore.DuplicateItemException.class, () -> spool.handBack(held));
        assertEquals("dropped in meanwhile", read(SpoolFolder.PENDING, "h"));
        assertEquals("the item", Files.readString(layout.claimFile(held)));
    }

    @Test
    void aRetryNeverReplacesAPendingFileAndLeavesTheItemFailedWithItsReason() throws IOException {
        Files.writeString(layout.file(SpoolFolder.FAILED, "r"), "the item");
        spool.writeRecord("r", Generation.parse("2-abc").orElseThrow(),
                new AttemptRecord(AttemptRecord.Kind.FAILED, 0, "exit 2: no such table"));
        Files.writeString(layout.file(SpoolFolder.PENDING, "r"), "another file");

        assertThrows(ItemStore.WrongStateException.class, () -> store.retry("r"), "409: pending/r is taken");
        assertEquals("another file", read(SpoolFolder.PENDING, "r"));
        assertEquals("the item", read(SpoolFolder.FAILED, "r"));
        assertEquals(java.util.Optional.of("exit 2: no such table"), spool.records().failedReason("r"));
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.CLAIMED));
    }

    @Test
    void aCancelNeverReplacesAFailedFileAndLeavesTheItemPending() throws IOException {
        Files.writeString(layout.file(SpoolFolder.FAILED, "c"), "an older file under the same id");
        asAnOlderSpool(); // an unreserved failed/c is an older build's
        Files.writeString(layout.file(SpoolFolder.PENDING, "c"), "the item");

        assertThrows(ItemStore.UnfitItemException.class, () -> store.cancel("c"));
        assertEquals("an older file under the same id", read(SpoolFolder.FAILED, "c"));
        assertEquals("the item", read(SpoolFolder.PENDING, "c"));
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.CLAIMED));
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.IDS), "the pending file is not made the id's");
    }

    @Test
    void aSettlementWhoseItemIsSettledAlreadyStepsBackAndMovesNothing() throws IOException {
        ClaimName late = claim("l", "the item");
        Files.createLink(layout.file(SpoolFolder.DONE, "l"), layout.claimFile(late)); // its first settlement stopped here

        assertFalse(spool.settle(late, ItemState.FAILED), "not settled a second time");
        assertEquals("the item", read(SpoolFolder.DONE, "l"));
        assertFalse(Files.exists(layout.file(SpoolFolder.FAILED, "l")));
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.CLAIMED));
    }

    @Test
    void anEnqueueOnAFilesystemWithoutHardLinksBetweenItsFoldersIsAnErrorNeverA201() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && !Files.getFileStore(shm).equals(Files.getFileStore(dir)),
                "needs a second filesystem");
        Path elsewhere = Files.createTempDirectory(shm, "leasehold-tmp");
        try {
            Files.delete(layout.folder(SpoolFolder.TMP));
            Files.createSymbolicLink(layout.folder(SpoolFolder.TMP), elsewhere); // link(2) across filesystems: EXDEV

            IOException e = assertThrows(IOException.class, () -> store.enqueue("x",
                    new ByteArrayInputStream("payload".getBytes(StandardCharsets.UTF_8)), 100));
            assertTrue(e.getMessage().contains("hard link"), e.getMessage());
            assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.PENDING));
            try (var left = Files.list(elsewhere)) {
                assertEquals(0, left.count(), "the upload is removed");
            }
        } finally {
            try (var left = Files.list(elsewhere)) {
                for (Path p : left.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(elsewhere);
        }
    }
}
