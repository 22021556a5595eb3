package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.Mapped;
import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.HolderTag;
import io.leasehold.directory.linux.LinuxCalls;
import io.leasehold.spool.ItemState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A settlement by one renameat2(RENAME_NOREPLACE) and one utimensat, and by the JDK's link, unlink and set-times,
 * leave the same files: one name in done/ or failed/, dated by the clock. Where the filesystem refuses the
 * rename's flag (NFS answers EINVAL: staged here by a small fake, no NFS server being at hand), the spool settles
 * by link and unlink from then on, losing nothing. NoReplaceTest and the contract suites run on whichever path
 * the JDK gives (the JDK's on Java 17; renameat2 on the JDK 25 run of the pom's linux-calls profile).
 */
class SettleCallsTest extends StoreTestBase {

    private PosixSpool spool(Optional<LinuxCalls> linux) {
        return new PosixSpool(layout, anomalies, clock, Mapped.defaults().item().maxBytes().asLongValue(),
                HolderTag.NONE, DirectoryOptions.DEFAULTS, linux);
    }

    private ClaimName claim(String id) throws IOException {
        ClaimName claim = new ClaimName(id, Generation.first(), clock.now().plusSeconds(60));
        Files.writeString(layout.claimFile(claim), "payload of " + id);
        return claim;
    }

    private void assertSettledOnce(SpoolFolder where, String id, Instant at) throws IOException {
        Path settled = layout.file(where, id);
        assertEquals("payload of " + id, Files.readString(settled));
        assertEquals(1, names(settled), id + ": one name, no second left behind");
        assertEquals(at, Files.getLastModifiedTime(settled, LinkOption.NOFOLLOW_LINKS).toInstant(), id + ": dated");
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.CLAIMED));
    }

    @Test
    void bothWaysLeaveOneNameDatedByTheClock() throws IOException {
        for (boolean calls : List.of(true, false)) {
            Optional<LinuxCalls> linux = calls ? LinuxCalls.load() : Optional.empty();
            PosixSpool settling = spool(linux);
            assertEquals(linux.isPresent(), settling.settlesByRename());
            clock.advance(Duration.ofMinutes(3).plusNanos(123_456_789));
            for (ItemState where : List.of(ItemState.DONE, ItemState.FAILED)) {
                String id = where.label() + "-" + calls;
                assertTrue(settling.settle(claim(id), where));
                assertSettledOnce(SpoolFolder.of(where), id, clock.now());
            }
        }
    }

    @Test
    void aFilesystemThatRefusesTheRenamesFlagIsSettledByLinkFromThenOn() throws IOException {
        AtomicInteger renames = new AtomicInteger();
        AtomicInteger stamps = new AtomicInteger();
        LinuxCalls nfs = new LinuxCalls() { // what NFS answers to both flags
            @Override
            public int renameNoReplace(Path from, Path to) {
                renames.incrementAndGet();
                return LinuxCalls.EINVAL;
            }

            @Override
            public int setTimesNoFollow(Path file, Instant time) {
                stamps.incrementAndGet();
                return LinuxCalls.ENOTSUP;
            }
        };
        PosixSpool settling = spool(Optional.of(nfs));
        assertTrue(settling.settlesByRename());

        assertTrue(settling.settle(claim("first"), ItemState.DONE));
        assertSettledOnce(SpoolFolder.DONE, "first", clock.now());
        assertFalse(settling.settlesByRename(), "refused once: not asked again");
        assertTrue(settling.handBack(claim("back")));
        assertTrue(settling.settle(claim("second"), ItemState.FAILED));

        assertSettledOnce(SpoolFolder.FAILED, "second", clock.now());
        assertEquals("payload of back", Files.readString(layout.file(SpoolFolder.PENDING, "back")));
        assertEquals(1, renames.get(), "the rename was tried once");
        assertEquals(1, stamps.get(), "and the times with it");
    }
}
