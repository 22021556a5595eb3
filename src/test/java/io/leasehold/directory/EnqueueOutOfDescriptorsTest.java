package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.StagedBatch;
import io.leasehold.testing.FewDescriptors;
import io.leasehold.testing.Reservation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An enqueue that runs out of descriptors (real EMFILE: this JVM's own limit lowered, see
 * {@link FewDescriptors}) at each of its steps in turn ends as an item or a free id: never an id known with
 * no item behind it, never a file left in tmp/, and the error it throws is the one that stopped it. In
 * the second round a burst of other connections takes every descriptor left just as the enqueue syncs
 * pending/ (staged beside the real fsync), so what the enqueue does to take itself back runs with none.
 */
class EnqueueOutOfDescriptorsTest extends StoreTestBase {

    private volatile FewDescriptors burstAtSync;

    @BeforeEach
    void syncWhereABurstMayArrive() {
        DirectorySync real = new PosixDirectorySync();
        store = new PosixItemStore(layout, spool, new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10)),
                clock, directory -> {
                    FewDescriptors burst = burstAtSync;
                    if (burst != null) {
                        burst.takeTheRest();
                    }
                    real.force(directory);
                });
    }

    private static final long MAX = 1 << 20;
    /** More than an enqueue opens at once: the last runs have room for all of it. */
    private static final int MOST_FREE = 12;

    private static InputStream bytes(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anEnqueueCutOffByEmfileAtAnyStepLeavesAnItemOrAFreeIdAndSaysWhy() throws IOException {
        // Every class an enqueue and its failures need is loaded first: loading one takes a descriptor here
        // (a packaged service keeps its one jar open, so it needs none).
        loadPackageOf(Enqueue.class);
        loadPackageOf(io.leasehold.core.ItemId.class);
        store.enqueue("warm", bytes("x"), MAX);
        assertThrows(ItemStore.DuplicateItemException.class, () -> store.enqueue("warm", bytes("x"), MAX));
        Map<String, Integer> stoppedIn = new TreeMap<>();
        int enqueued = 0;
        for (int run = 0; run <= 2 * MOST_FREE + 1; run++) {
            boolean burst = run > MOST_FREE;
            int free = burst ? run - MOST_FREE - 1 : run;
            String id = (burst ? "burst-" : "fd-") + free;
            IOException failure = null;
            try (FewDescriptors few = FewDescriptors.leaving(free)) {
                burstAtSync = burst ? few : null;
                store.enqueue(id, bytes("payload " + free), MAX);
            } catch (IOException e) {
                failure = e;
            } finally {
                burstAtSync = null;
            }
            assertEquals(List.of(), tmpNames(), "nothing left in tmp/ with " + free + " descriptors free");
            if (failure == null) {
                enqueued++;
                assertArrayEquals(("payload " + free).getBytes(StandardCharsets.UTF_8),
                        Files.readAllBytes(layout.file(SpoolFolder.PENDING, id)), "the item answered enqueued is whole");
                continue;
            }
            assertTrue(says(failure, "Too many open files"), "the error told is what stopped it: " + failure);
            stoppedIn.merge(step(failure), 1, Integer::sum);
            if (itemFiles(id).isEmpty()) {
                assertFalse(Reservation.present(layout.file(SpoolFolder.IDS, id)),
                        "no item, so the id is free, with " + free + " free (stopped in " + step(failure) + ")");
                store.enqueue(id, bytes("again"), MAX); // the retry its 503 asks for
            }
        }
        System.out.printf("EnqueueOutOfDescriptorsTest: stopped in %s; enqueued at once %d of %d%n", stoppedIn,
                enqueued, 2 * MOST_FREE + 2);
        assertTrue(enqueued > 0, "with enough descriptors free an enqueue goes through");
        assertTrue(stoppedIn.keySet().stream().anyMatch(s -> !s.startsWith("Enqueue.enqueue")),
                "some enqueue stopped after its reservation was made (in a later step): " + stoppedIn);
        assertTrue(stoppedIn.containsKey("GroupCommit.awaitSync"), "a burst stopped the sync of pending/ (and the error told is its own): "
                + stoppedIn);
    }

    private static void loadPackageOf(Class<?> type) throws IOException {
        try {
            java.nio.file.Path dir = java.nio.file.Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .resolve(type.getPackageName().replace('.', '/'));
            try (Stream<java.nio.file.Path> s = Files.list(dir)) {
                for (String name : s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class")).toList()) {
                    Class.forName(type.getPackageName() + "." + name.substring(0, name.length() - ".class".length()));
                }
            }
        } catch (java.net.URISyntaxException | ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The item's file in any folder, found by name, whatever the store would say of the id. */
    private List<String> itemFiles(String id) throws IOException {
        List<String> found = new ArrayList<>();
        for (SpoolFolder folder : List.of(SpoolFolder.PENDING, SpoolFolder.CLAIMED, SpoolFolder.DONE, SpoolFolder.FAILED)) {
            try (Stream<java.nio.file.Path> s = Files.list(layout.folder(folder))) {
                s.map(p -> p.getFileName().toString()).filter(n -> n.equals(id) || n.startsWith(id + "~"))
                        .forEach(n -> found.add(folder.dirName() + "/" + n));
            }
        }
        return found;
    }

    @Test
    void aBatchRefusedWhileDescriptorsAreOutReleasesItsIdsAndLeavesNothing() throws IOException {
        loadPackageOf(Enqueue.class);
        loadPackageOf(io.leasehold.core.ItemId.class);
        stageThreeAndRefuse("warm"); // with descriptors to spare, as every run below but for them
        int refusedEarly = 0;
        for (int free = 0; free <= MOST_FREE; free++) {
            String prefix = "b" + free;
            try (FewDescriptors few = FewDescriptors.leaving(free)) {
                stageThreeAndRefuse(prefix);
            } catch (IOException e) {
                refusedEarly++; // a line could not be staged: refused all the same
                assertTrue(says(e, "Too many open files"), "the error told is what stopped it: " + e);
            }
            for (int n = 1; n <= 3; n++) {
                assertFalse(Reservation.present(layout.file(SpoolFolder.IDS, prefix + "-" + n)),
                        "a refused batch leaves its ids free, with " + free + " descriptors free");
            }
            assertEquals(List.of(), tmpNames(), "nothing of the batch left in tmp/ with " + free + " free");
        }
        System.out.printf("EnqueueOutOfDescriptorsTest: batches refused while staging %d of %d%n", refusedEarly,
                MOST_FREE + 1);
    }

    /** Three lines staged (as far as descriptors let), then refused, as a bad fourth line refuses a batch. */
    private void stageThreeAndRefuse(String prefix) throws IOException {
        try (StagedBatch batch = store.stageBatch(MAX)) {
            for (int n = 1; n <= 3; n++) {
                try (java.io.OutputStream out = batch.payload(n, prefix + "-" + n)) {
                    out.write(("line " + n).getBytes(StandardCharsets.UTF_8));
                }
                batch.item(n, prefix + "-" + n);
            }
        }
    }

    private List<String> tmpNames() throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<java.nio.file.Path> s = Files.list(layout.folder(SpoolFolder.TMP))) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }

    private static boolean says(Throwable e, String words) {
        return e != null && (String.valueOf(e.getMessage()).contains(words) || says(e.getCause(), words));
    }

    /** The leasehold frame nearest the failing call: where in the enqueue it stopped. */
    private static String step(Throwable e) {
        for (StackTraceElement f : e.getStackTrace()) {
            if (f.getClassName().startsWith("io.leasehold.directory.")) {
                return f.getClassName().substring("io.leasehold.directory.".length()) + "." + f.getMethodName();
            }
        }
        return "?";
    }
}
