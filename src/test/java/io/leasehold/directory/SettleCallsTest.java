package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import io.leasehold.spool.ItemStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A settlement by one renameat2(RENAME_NOREPLACE) and one utimensat, and by the JDK's link, unlink and set-times,
 * leave the same files: one name in done/ or failed/, dated by the clock. The real calls run where the JDK has
 * them (Java 22+: the JDK 25 run of the pom's linux-calls profile); {@link JavaRenames}, a small fake that keeps
 * the calls' answers, runs the rename path's handling of each answer on any JDK. Where the filesystem refuses
 * the rename's flag (NFS answers EINVAL, staged by a fake, no NFS server being at hand), the spool settles by
 * link and unlink from then on, losing nothing. NoReplaceTest and the contract suites run on whichever path the
 * JDK gives.
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

    /** The calls' answers, made with the JDK's own calls: what the rename path does with each, on any JDK. */
    static class JavaRenames implements LinuxCalls {
        final AtomicInteger renames = new AtomicInteger();
        volatile int answer; // 0: do as the kernel would; else answer this errno

        @Override
        public int renameNoReplace(Path from, Path to) {
            renames.incrementAndGet();
            if (answer != 0) {
                return answer;
            }
            if (Files.exists(to, LinkOption.NOFOLLOW_LINKS)) {
                return LinuxCalls.EEXIST;
            }
            try {
                Files.move(from, to, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                return 0;
            } catch (java.nio.file.NoSuchFileException e) {
                return LinuxCalls.ENOENT;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public int setTimesNoFollow(Path file, Instant time) {
            try {
                java.nio.file.attribute.FileTime t = java.nio.file.attribute.FileTime.from(time);
                Files.getFileAttributeView(file, java.nio.file.attribute.BasicFileAttributeView.class,
                        LinkOption.NOFOLLOW_LINKS).setTimes(t, t, null);
                return 0;
            } catch (java.nio.file.NoSuchFileException e) {
                return LinuxCalls.ENOENT;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    @Test
    void everyWayLeavesOneNameDatedByTheClock() throws IOException {
        List<Optional<LinuxCalls>> ways = new ArrayList<>(List.of(Optional.empty(), Optional.of(new JavaRenames())));
        LinuxCalls.load().ifPresent(real -> ways.add(Optional.of(real)));
        for (int way = 0; way < ways.size(); way++) {
            PosixSpool settling = spool(ways.get(way));
            assertEquals(ways.get(way).isPresent(), settling.settlesByRename());
            clock.advance(Duration.ofMinutes(3).plusNanos(123_456_789));
            for (ItemState where : List.of(ItemState.DONE, ItemState.FAILED)) {
                String id = where.label() + "-" + way;
                assertTrue(settling.settle(claim(id), where));
                assertSettledOnce(SpoolFolder.of(where), id, clock.now());
            }
        }
    }

    @Test
    void theRenameNeverReplacesASettledFileAndStepsBackWhenItsClaimIsGone() throws IOException {
        JavaRenames renames = new JavaRenames();
        PosixSpool settling = spool(Optional.of(renames));
        Files.writeString(layout.file(SpoolFolder.DONE, "taken"), "the first");
        ClaimName second = claim("taken");

        assertThrows(ItemStore.DuplicateItemException.class, () -> settling.settle(second, ItemState.DONE));
        assertEquals("the first", Files.readString(layout.file(SpoolFolder.DONE, "taken")));
        assertTrue(Files.exists(layout.claimFile(second)), "the claim stays where it is");

        ClaimName gone = claim("gone");
        renames.answer = LinuxCalls.ENOENT; // a takeover renamed it between the look and the rename
        assertFalse(settling.settle(gone, ItemState.DONE));
        assertTrue(settling.settlesByRename(), "a name gone is no reason to stop renaming");
    }

    @Test
    void anUnexpectedAnswerMovesByLinkThisTimeAndADirectoryIsNeverRenamed() throws IOException {
        JavaRenames renames = new JavaRenames();
        PosixSpool settling = spool(Optional.of(renames));
        renames.answer = 1; // EPERM: a seccomp or LSM policy
        assertTrue(settling.settle(claim("policy"), ItemState.DONE));
        assertSettledOnce(SpoolFolder.DONE, "policy", clock.now());
        assertTrue(settling.settlesByRename(), "only a filesystem without the flag stops the renames");

        renames.answer = 0;
        renames.renames.set(0);
        ClaimName folder = new ClaimName("folder", Generation.first(), clock.now().plusSeconds(60));
        Files.createDirectory(layout.claimFile(folder));
        assertThrows(IOException.class, () -> settling.settle(folder, ItemState.DONE));
        assertEquals(0, renames.renames.get(), "not renamed");
        assertTrue(Files.isDirectory(layout.claimFile(folder)));
        assertFalse(Files.exists(layout.file(SpoolFolder.DONE, "folder"), LinkOption.NOFOLLOW_LINKS));
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
