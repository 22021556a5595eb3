package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    void aLinkWhoseTargetIsNoInodeNumberIsJunkAndNeverFollowed() throws Exception {
        Path item = Files.writeString(layout.file(SpoolFolder.PENDING, "j"), "payload");
        // Followed, it would read as a reservation naming the item itself.
        Path elsewhere = Files.writeString(dir.resolve("elsewhere"), ino(item) + "\n");
        Files.createSymbolicLink(layout.file(SpoolFolder.IDS, "j"), elsewhere);
        assertEquals(Optional.empty(), spool.claim("j", clock.now()));
        assertTrue(anomalies.isKnown(SpoolFolder.IDS, "j"));
        assertTrue(Files.exists(item), "left where it was");
    }

    @Test
    void aReservationThatExistsAndNamesTheSameInodeIsThatFilesOwn() throws Exception {
        Path item = Files.writeString(layout.file(SpoolFolder.PENDING, "twice"), "payload");
        // As an NFS symlink call sent twice leaves it: the first made it, the second finds it.
        Files.createSymbolicLink(layout.file(SpoolFolder.IDS, "twice"), Path.of(Long.toString(ino(item))));
        assertTrue(spool.claim("twice", clock.now()).isPresent());
        assertFalse(anomalies.isKnown(SpoolFolder.PENDING, "twice"));
    }

    @Test
    void withReservationLinksOffAnIdIsReservedByAPlainFileAsOlderBuildsRead() throws Exception {
        PosixSpool plain = new PosixSpool(layout, anomalies, clock, 1000, io.leasehold.core.HolderTag.NONE,
                DirectoryOptions.DEFAULTS.withReservationLinks(false));
        long ino = ino(Files.writeString(layout.file(SpoolFolder.PENDING, "p"), "by another program"));
        assertTrue(plain.claim("p", clock.now()).isPresent());
        Path reservation = layout.file(SpoolFolder.IDS, "p");
        assertTrue(Files.isRegularFile(reservation, java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertEquals(ino + "\n", Files.readString(reservation));
    }
}
