package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.Mapped;
import io.leasehold.core.HolderTag;
import io.leasehold.core.LeaseTerms;
import io.leasehold.directory.linux.LinuxCalls;
import io.leasehold.spool.StagedBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * A batch's payloads reach the disk by one syncfs where it can be had, else by an fsync each: a syncfs that
 * fails refuses the batch with nothing left, its descriptor is opened before the first payload and always
 * given back, and a descriptor that cannot be had leaves the batch to the fsyncs.
 */
class BatchSyncsTest extends StoreTestBase {

    private static final long MAX = 1 << 20;

    /** The settlement's calls as the JDK makes them, and syncfs as scripted. */
    private static final class ScriptedSyncfs extends SettleCallsTest.JavaRenames {
        final List<String> calls = new ArrayList<>();
        volatile boolean supported = true;
        volatile int openAnswer = 42;
        volatile int syncAnswer;
        final AtomicInteger open = new AtomicInteger();
        /** What tmp/ held when each descriptor was opened: the batch's folder must not be made yet. */
        final List<List<String>> tmpAtOpen = new ArrayList<>();

        @Override
        public boolean syncsFileSystems() {
            return supported;
        }

        @Override
        public int openDirectory(Path dir) {
            calls.add("open " + dir.getFileName());
            try (Stream<Path> files = Files.list(dir)) {
                tmpAtOpen.add(files.map(p -> p.getFileName().toString()).toList());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            if (openAnswer >= 0) {
                open.incrementAndGet();
            }
            return openAnswer;
        }

        @Override
        public int syncFileSystem(int fd) {
            calls.add("syncfs " + fd);
            return syncAnswer;
        }

        @Override
        public int close(int fd) {
            calls.add("close " + fd);
            open.decrementAndGet();
            return 0;
        }
    }

    private final ScriptedSyncfs calls = new ScriptedSyncfs();

    private PosixItemStore storeWith(LinuxCalls linux) {
        PosixSpool withCalls = new PosixSpool(layout, anomalies, clock, Mapped.defaults().item().maxBytes().asLongValue(),
                HolderTag.NONE, DirectoryOptions.DEFAULTS, Optional.of(linux));
        return new PosixItemStore(layout, withCalls, new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10)),
                clock);
    }

    private static List<String> enqueueBatch(PosixItemStore store, int n, String prefix) throws IOException {
        List<String> ids = new ArrayList<>();
        try (StagedBatch batch = store.stageBatch(MAX)) {
            for (int i = 0; i < n; i++) {
                String id = prefix + i;
                batch.payload(i + 1, id).write(("payload " + i).getBytes(StandardCharsets.UTF_8));
                batch.item(i + 1, id);
                ids.add(id);
            }
            assertEquals(ids, batch.commit());
        }
        return ids;
    }

    private List<String> names(SpoolFolder folder) throws IOException {
        try (Stream<Path> files = Files.list(layout.folder(folder))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aBatchSyncsItsPayloadsByOneSyncfsThroughADescriptorOpenedBeforeThem() throws IOException {
        PosixItemStore syncing = storeWith(calls);
        assertTrue(syncing.batchesSyncBySyncfs(), "the spool's temporary folder is not on a local filesystem?");
        List<String> ids = enqueueBatch(syncing, 5, "b");
        assertEquals(ids, names(SpoolFolder.PENDING));
        assertEquals(List.of("open tmp", "syncfs 42", "close 42"), calls.calls);
        assertEquals(List.of(List.of()), calls.tmpAtOpen, "opened after the batch's folder was made");
        assertEquals(0, calls.open.get(), "a descriptor was kept");
    }

    @Test
    void aSyncfsThatFailsRefusesTheBatchAndLeavesNothingBehind() throws IOException {
        calls.syncAnswer = LinuxCalls.EIO;
        PosixItemStore syncing = storeWith(calls);
        StagedBatch batch = syncing.stageBatch(MAX);
        for (int i = 0; i < 3; i++) {
            batch.payload(i + 1, "x" + i).write(("payload " + i).getBytes(StandardCharsets.UTF_8));
            batch.item(i + 1, "x" + i);
        }
        IOException refused = assertThrows(IOException.class, batch::commit);
        assertTrue(refused.getMessage().contains("syncfs") && refused.getMessage().contains("errno 5"),
                refused.getMessage());
        batch.close();
        assertEquals(List.of(), names(SpoolFolder.PENDING), "an item of a batch not on disk was enqueued");
        assertEquals(List.of(), names(SpoolFolder.IDS), "a reservation was left");
        assertEquals(List.of(), names(SpoolFolder.TMP), "the staging was left");
        assertEquals(0, calls.open.get(), "the descriptor was kept");
        assertEquals(List.of("x0"), enqueueBatch(storeWith(new SettleCallsTest.JavaRenames()), 1, "x"),
                "the ids are free again");
    }

    @Test
    void aBatchRefusedBeforeItsCommitGivesItsDescriptorBack() throws IOException {
        PosixItemStore syncing = storeWith(calls);
        try (StagedBatch batch = syncing.stageBatch(MAX)) {
            batch.payload(1, "y").write(new byte[] {1});
            batch.item(1, "y");
        } // closed without a commit: rolled back
        assertEquals(0, calls.open.get(), "the descriptor was kept");
        assertFalse(calls.calls.stream().anyMatch(c -> c.startsWith("syncfs")), "synced a batch never committed");
        assertEquals(List.of(), names(SpoolFolder.PENDING));
    }

    @Test
    void aDescriptorThatCannotBeHadLeavesTheBatchToTheFsyncs() throws IOException {
        calls.openAnswer = -24; // EMFILE: the descriptor limit reached
        List<String> ids = enqueueBatch(storeWith(calls), 4, "d");
        assertEquals(ids, names(SpoolFolder.PENDING));
        assertFalse(calls.calls.stream().anyMatch(c -> c.startsWith("syncfs")), "calls: " + calls.calls);
    }

    /** The syncs of one batch on their own: an fsync per payload exactly where syncfs is not to be had. */
    @Test
    void aBatchSyncingByFsyncsBeginsOneForEachPayloadAndOneBySyncfsNone() throws IOException {
        Path staged = Files.writeString(dir.resolve("staged"), "payload");
        Path tmp = layout.folder(SpoolFolder.TMP);
        calls.openAnswer = -24;
        try (BatchSyncs.Batch noDescriptor = BatchSyncs.forSpool(dir, Optional.of(calls)).begin(tmp)) {
            noDescriptor.written(staged);
            noDescriptor.written(staged);
            noDescriptor.awaitDurable();
            assertEquals(2, noDescriptor.fsyncsBegun);
        }
        calls.openAnswer = 42;
        try (BatchSyncs.Batch bySyncfs = BatchSyncs.forSpool(dir, Optional.of(calls)).begin(tmp)) {
            bySyncfs.written(staged);
            bySyncfs.awaitDurable();
            assertEquals(0, bySyncfs.fsyncsBegun);
        }
        assertEquals(List.of("open tmp", "open tmp", "syncfs 42", "close 42"), calls.calls);
        calls.supported = false;
        try (BatchSyncs.Batch olderKernel = BatchSyncs.forSpool(dir, Optional.of(calls)).begin(tmp)) {
            olderKernel.written(staged);
            olderKernel.awaitDurable();
            assertEquals(1, olderKernel.fsyncsBegun);
        }
        assertEquals(4, calls.calls.size(), "an older kernel's calls were used: " + calls.calls);
    }

    /** A new spool's folders are made after its store: its filesystem is looked at once they exist, not before. */
    @Test
    void aSpoolWhoseFolderIsMadeAfterTheStoreSyncsBySyncfsOnceItExists() throws IOException {
        Path later = dir.resolve("made-later");
        BatchSyncs syncs = BatchSyncs.forSpool(later, Optional.of(calls));
        assertFalse(syncs.bySyncfs(), "a folder that does not exist yet is on no known filesystem");
        Files.createDirectories(later);
        assertTrue(syncs.bySyncfs(), "looked at again once the folder exists");
    }

    @Test
    void callsWithoutAReportingSyncfsKeepTheFsyncPerPayload() throws IOException {
        calls.supported = false; // a kernel before 5.17: its syncfs may answer 0 after a failed journal commit
        PosixItemStore fsyncing = storeWith(calls);
        assertFalse(fsyncing.batchesSyncBySyncfs());
        List<String> ids = enqueueBatch(fsyncing, 3, "k");
        assertEquals(ids, names(SpoolFolder.PENDING));
        assertEquals(List.of(), calls.calls);
    }

    /** The real calls, where the JDK makes them: a batch goes through syncfs on this machine's local disk. */
    @Test
    @EnabledForJreRange(min = JRE.JAVA_22, disabledReason = "Java 17 to 21 have no foreign-function API: fsyncs")
    void onTheRealKernelABatchOfAHundredIsEnqueuedThroughSyncfs() throws IOException {
        LinuxCalls real = LinuxCalls.load().orElseThrow();
        assertTrue(real.syncsFileSystems(), "Linux " + System.getProperty("os.version"));
        PosixItemStore syncing = storeWith(real);
        assertTrue(syncing.batchesSyncBySyncfs(), Files.getFileStore(dir).type());
        List<String> ids = enqueueBatch(syncing, 100, "r");
        assertEquals(ids.stream().sorted().toList(), names(SpoolFolder.PENDING));
        assertEquals(List.of(), names(SpoolFolder.TMP));
    }
}
