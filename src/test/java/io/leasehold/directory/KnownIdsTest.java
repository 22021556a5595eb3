package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import io.leasehold.testing.Await;
import io.leasehold.testing.Fifo;
import io.leasehold.testing.OwnThreads;
import io.leasehold.testing.Reservation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An id is known from the start of its first enqueue until it is purged: ids/<id> on real files. */
class KnownIdsTest extends StoreTestBase {

    private static final Duration WAIT = Duration.ofSeconds(10);


    private static InputStream bytes(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    private String reservation(String id) throws IOException {
        return Reservation.text(layout.file(SpoolFolder.IDS, id)).trim();
    }

    /** A body whose first bytes come at once and the rest when the test releases it. */
    static final class HeldBody extends InputStream {
        final CountDownLatch release = new CountDownLatch(1);
        /** Down once the enqueue reads the body: it has reserved the id and looked for an older item under it. */
        final CountDownLatch reading = new CountDownLatch(1);
        private final byte[] first;
        private final byte[] rest;
        private int at;

        HeldBody(String first, String rest) {
            this.first = first.getBytes(StandardCharsets.UTF_8);
            this.rest = rest.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public int read() throws IOException {
            reading.countDown();
            if (at == first.length) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            int i = at++;
            return i < first.length ? first[i] : i - first.length < rest.length ? rest[i - first.length] : -1;
        }
    }

    private CompletableFuture<ItemView> enqueueAsync(String id, HeldBody body) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return store.enqueue(id, body, 1000);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, OwnThreads.EACH);
    }

    @Test
    void anIdIsKnownWhileItsFirstUploadStillStreamsAndItsReservationNamesThePayload() throws Exception {
        HeldBody body = new HeldBody("the first ", "upload");
        CompletableFuture<ItemView> first = enqueueAsync("x", body);
        Await.until("x is reserved", WAIT, () -> Reservation.present(layout.file(SpoolFolder.IDS, "x")));

        assertThrows(ItemStore.DuplicateItemException.class, () -> store.enqueue("x", bytes("a second"), 1000));
        body.release.countDown();
        assertEquals("pending", first.get(10, TimeUnit.SECONDS).state());
        assertEquals("the first upload", Files.readString(layout.file(SpoolFolder.PENDING, "x")));
        assertEquals(Long.toString(ino(layout.file(SpoolFolder.PENDING, "x"))), reservation("x"));
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.TMP));
    }

    @Test
    void anItemOfASpoolOlderThanReservationsIsKnownInEveryStateAndLeavesNoReservationBehind() throws IOException {
        Files.writeString(layout.file(SpoolFolder.PENDING, "p"), "old");
        Files.writeString(layout.claimFile(new ClaimName("c", Generation.first(), clock.now())), "old");
        Files.writeString(layout.file(SpoolFolder.DONE, "d"), "old");
        Files.writeString(layout.file(SpoolFolder.FAILED, "f"), "old");
        for (String id : List.of("p", "c", "d", "f")) {
            assertThrows(ItemStore.DuplicateItemException.class, () -> store.enqueue(id, bytes("new"), 1000), id);
        }
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.IDS), "a refused enqueue reserves nothing");
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.TMP));
    }

    @Test
    void aFileDroppedIntoPendingIsReservedWhenFirstClaimed() throws IOException {
        Path dropped = Files.writeString(layout.file(SpoolFolder.PENDING, "drop"), "by another program");
        long ino = ino(dropped);
        assertTrue(spool.claim("drop", clock.now()).isPresent());
        assertEquals(Long.toString(ino), reservation("drop"));
        assertThrows(ItemStore.DuplicateItemException.class, () -> store.enqueue("drop", bytes("again"), 1000));
    }

    @Test
    void aFileDroppedInWhileAnUploadOfItsIdStreamsNeverReplacesNorRunsAsThatUpload() throws Exception {
        HeldBody body = new HeldBody("uploaded ", "by the API");
        CompletableFuture<ItemView> upload = enqueueAsync("race", body);
        // Dropped in once the upload streams: a file there before its look for older items makes it refuse at once.
        assertTrue(body.reading.await(10, TimeUnit.SECONDS), "the upload streams");
        Files.writeString(layout.file(SpoolFolder.PENDING, "race"), "dropped in by another program");

        assertEquals(Optional.empty(), spool.claim("race", clock.now()), "not the file the id was reserved for");
        assertTrue(anomalies.isKnown(SpoolFolder.PENDING, "race"));
        body.release.countDown();
        Exception refused = assertThrows(Exception.class, () -> upload.get(10, TimeUnit.SECONDS));
        assertTrue(refused.getCause().getCause() instanceof ItemStore.DuplicateItemException, refused.toString());
        assertEquals("dropped in by another program", Files.readString(layout.file(SpoolFolder.PENDING, "race")));
        assertFalse(Reservation.present(layout.file(SpoolFolder.IDS, "race")), "the refused upload released its reservation");

        spool.forgetFixedJunk(); // housekeeping: no longer junk, so it is claimed (and reserved) as itself
        assertTrue(spool.claim("race", clock.now()).isPresent());
    }

    @Test
    void anEmptyReservationIsLeftToItsMakerForAMomentThenTakenOver() throws IOException {
        Path empty = Files.writeString(layout.file(SpoolFolder.IDS, "e"), "");
        Files.setLastModifiedTime(empty, FileTime.from(clock.now()));
        Path item = Files.writeString(layout.file(SpoolFolder.PENDING, "e"), "payload");
        assertEquals(Optional.empty(), spool.claim("e", clock.now()), "its maker is about to write it");

        clock.set(clock.now().plus(Reservations.WRITE_GRACE).plusSeconds(1));
        long ino = ino(item);
        assertTrue(spool.claim("e", clock.now()).isPresent(), "its maker stopped: the claim reserves it");
        assertEquals(Long.toString(ino), reservation("e"));
    }

    @Test
    void aReservationThatIsJunkNeverBlocksAndIsReported() throws Exception {
        Fifo.make(layout.file(SpoolFolder.IDS, "j"));
        Files.writeString(layout.file(SpoolFolder.PENDING, "j"), "payload");

        assertEquals(Optional.empty(), spool.claim("j", clock.now()));
        assertTrue(anomalies.isKnown(SpoolFolder.IDS, "j") && anomalies.isKnown(SpoolFolder.PENDING, "j"),
                anomalies.list().toString());
        assertThrows(ItemStore.DuplicateItemException.class, () -> store.enqueue("j", bytes("x"), 1000));

        Files.delete(layout.file(SpoolFolder.IDS, "j")); // a person fixes it
        spool.forgetFixedJunk();
        assertFalse(anomalies.isKnown(SpoolFolder.IDS, "j") || anomalies.isKnown(SpoolFolder.PENDING, "j"));
        assertTrue(spool.claim("j", clock.now()).isPresent());
    }

    @Test
    void purgeRemovesTheFileThenItsBookkeepingAndReservationAndTheIdIsNewAgain() throws IOException {
        store.enqueue("old", bytes("first life"), 1000);
        ClaimName claim = spool.claim("old", clock.now()).orElseThrow();
        spool.writeRecord("old", claim.generation(), new AttemptRecord(AttemptRecord.Kind.FAILED, 3, "exit 2"));
        assertTrue(spool.settle(claim, ItemState.FAILED));
        assertThrows(IllegalArgumentException.class, () -> store.purge("old", ItemState.PENDING));
        assertThrows(ItemStore.DuplicateItemException.class, () -> store.enqueue("old", bytes("again"), 1000));

        assertTrue(store.purge("old", ItemState.FAILED));
        assertFalse(store.purge("old", ItemState.FAILED), "nothing left to purge");
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.FAILED));
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.ATTEMPTS));
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.IDS));

        store.enqueue("old", bytes("second life"), 1000);
        ClaimName again = spool.claim("old", clock.now()).orElseThrow();
        assertEquals(1, again.generation().attempt());
        assertEquals(Optional.empty(), spool.record("old", again.generation()), "nothing inherited");
    }
}
