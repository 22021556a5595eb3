package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.ItemStore;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A reservation is one symbolic link whose target is the item's inode number, made by one symlink(2) and
 * never followed; a plain file holding the number, as builds before made them, decides alike. Anything else
 * under the name is junk.
 */
class ReservationFormsTest extends StoreTestBase {

    private static ByteArrayInputStream bytes(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anEnqueueReservesItsIdByOneLinkToTheInodeNumberDatedWhenItWasEnqueued() throws Exception {
        Instant enqueued = clock.now();
        store.enqueue("e", bytes("payload"), 1000);
        Path reservation = layout.file(SpoolFolder.IDS, "e");
        assertTrue(Files.isSymbolicLink(reservation));
        assertEquals(Long.toString(ino(layout.file(SpoolFolder.PENDING, "e"))), Files.readSymbolicLink(reservation).toString());
        clock.advance(Duration.ofMinutes(5));
        assertEquals(enqueued, store.lookup("e").orElseThrow().enqueuedAt(), "the link's own time, not its target's");
        assertThrows(ItemStore.DuplicateItemException.class, () -> store.enqueue("e", bytes("again"), 1000));
    }

    @Test
    void aFileDroppedInIsReservedByOneLinkWhenFirstClaimed() throws Exception {
        Path dropped = Files.writeString(layout.file(SpoolFolder.PENDING, "d"), "by another program");
        long ino = ino(dropped);
        assertTrue(spool.claim("d", clock.now()).isPresent());
        assertEquals(Long.toString(ino), Files.readSymbolicLink(layout.file(SpoolFolder.IDS, "d")).toString());
    }

    @Test
    void aPlainFileReservationOfAnOlderBuildStillDecidesWhichFileIsTheItem() throws Exception {
        Path first = Files.writeString(layout.file(SpoolFolder.DONE, "old"), "the item");
        Files.writeString(layout.file(SpoolFolder.IDS, "old"), ino(first) + "\n");
        Files.writeString(layout.file(SpoolFolder.PENDING, "old"), "a second file under its id");
        assertEquals(Optional.empty(), spool.claim("old", clock.now()), "never run in the item's place");
        assertTrue(anomalies.isKnown(SpoolFolder.PENDING, "old"));

        Path own = Files.writeString(layout.file(SpoolFolder.PENDING, "mine"), "the item");
        Files.writeString(layout.file(SpoolFolder.IDS, "mine"), ino(own) + "\n");
        assertTrue(spool.claim("mine", clock.now()).isPresent(), "the file it names is claimed");
    }

    @Test
    void aLinkWhoseTargetIsNoInodeNumberIsJunkAndTheIdsFileIsLeftAlone() throws Exception {
        Path item = Files.writeString(layout.file(SpoolFolder.PENDING, "j"), "payload");
        Files.createSymbolicLink(layout.file(SpoolFolder.IDS, "j"), item); // a path, not a number: never followed
        assertEquals(Optional.empty(), spool.claim("j", clock.now()));
        assertTrue(anomalies.isKnown(SpoolFolder.IDS, "j"));
        assertTrue(Files.exists(item), "left where it was");
    }
}
