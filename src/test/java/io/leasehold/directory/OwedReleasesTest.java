package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Reservation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A release that failed is owed (the failure itself is staged in {@link EnqueueOutOfDescriptorsTest}
 * only as far as the kernel lets: stat and unlink need no descriptor, so here the debt is recorded as
 * {@link Reservations#release} records it): paid by the id's next enqueue here or by housekeeping, once,
 * and never on a reservation made since, even one the filesystem gave the same inode number.
 */
class OwedReleasesTest extends StoreTestBase {

    private Reservations reservations() {
        return spool.reservations();
    }

    private Path reservation(String id) {
        return layout.file(SpoolFolder.IDS, id);
    }

    @Test
    void aReleaseOwedIsPaidByTheIdsNextEnqueueHere() throws IOException {
        Reservations.Made failed = reservations().reserveOwn("owed", 11, clock.now()).orElseThrow();
        reservations().owe(failed);
        assertTrue(Reservation.present(reservation("owed")), "known while the debt stands");
        Optional<Reservations.Made> again = reservations().reserveOwn("owed", 12, clock.now());
        assertTrue(again.isPresent(), "the retry pays the debt and reserves the id for itself");
        assertEquals("12", Reservation.text(reservation("owed")).trim());
    }

    @Test
    void housekeepingPaysWhatIsOwed() throws IOException {
        reservations().owe(reservations().reserveOwn("swept", 21, clock.now()).orElseThrow());
        assertEquals(1, reservations().payOwed());
        assertFalse(Reservation.present(reservation("swept")));
        assertEquals(0, reservations().payOwed(), "paid once");
    }

    @Test
    void aDebtPaidLateNeverRemovesAReservationMadeSinceUnderTheSameInodeNumber() throws IOException {
        // The debt's file goes, and a new reservation of the id is made at once: ext4 hands out the freed
        // inode number again, so the number alone would take the new one for the debt's.
        Reservations.Made stale = reservations().reserveOwn("reused", 31, clock.now()).orElseThrow();
        Files.delete(reservation("reused"));
        clock.advance(Duration.ofMillis(5));
        Reservations.Made live = null;
        for (int tries = 0; tries < 20 && (live == null || live.fileIno() != stale.fileIno()); tries++) {
            if (live != null) {
                Files.delete(reservation("reused"));
                clock.advance(Duration.ofMillis(5));
            }
            live = reservations().reserveOwn("reused", 32, clock.now()).orElseThrow();
        }
        System.out.printf("OwedReleasesTest: inode %d reused for the new reservation: %b%n", stale.fileIno(),
                live.fileIno() == stale.fileIno());
        reservations().owe(stale);
        reservations().payOwed();
        assertTrue(Reservation.present(reservation("reused")), "the live reservation stays");
        assertEquals("32", Reservation.text(reservation("reused")).trim());
    }

    @Test
    void twoEnqueuesOfAnIdWithADebtReserveItOnceBetweenThem() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 50; round++) {
                String id = "race-" + round;
                reservations().owe(reservations().reserveOwn(id, 40, clock.now()).orElseThrow());
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Boolean>> both = new ArrayList<>();
                for (long ino : new long[] {41, 42}) {
                    both.add(threads.submit(() -> {
                        go.await();
                        return reservations().reserveOwn(id, ino, clock.now()).isPresent();
                    }));
                }
                go.countDown();
                int reserved = 0;
                for (Future<Boolean> f : both) {
                    reserved += f.get(10, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertEquals(1, reserved, "round " + round + ": exactly one of the two owns the id");
                assertTrue(Reservation.present(reservation(id)), "and its reservation stands");
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
