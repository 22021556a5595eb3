package io.leasehold.directory.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two calls on the real kernel, where the JDK can make them; and that they are there exactly where it can
 * (Java 22 and later on Linux), so a run on a newer JDK cannot fall back to the JDK's calls unseen. The build
 * runs this on Java 17 and, where a JDK 25 is installed, again on it (the pom's linux-calls profile).
 */
class LinuxCallsTest {

    @TempDir
    Path dir;

    private final Optional<LinuxCalls> linux = LinuxCalls.load();

    @Test
    void theCallsAreThereExactlyWhereTheJdkCanMakeThem() {
        assertEquals(Runtime.version().feature() >= 22 && System.getProperty("os.name").equals("Linux"),
                linux.isPresent(), "Java " + Runtime.version());
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_22, disabledReason = "Java 17 to 21 have no foreign-function API: the JDK's calls")
    void aRenameThatNeverReplacesMovesOntoAFreeNameAndRefusesATakenOne() throws IOException {
        Path from = Files.writeString(dir.resolve("from"), "the item");
        Path free = dir.resolve("free");
        assertEquals(0, linux.get().renameNoReplace(from, free));
        assertEquals("the item", Files.readString(free));
        assertTrue(Files.notExists(from));

        Path second = Files.writeString(dir.resolve("second"), "another file");
        assertEquals(LinuxCalls.EEXIST, linux.get().renameNoReplace(second, free));
        assertEquals("the item", Files.readString(free), "never replaced");
        assertEquals("another file", Files.readString(second), "nor lost");

        assertEquals(LinuxCalls.ENOENT, linux.get().renameNoReplace(dir.resolve("gone"), dir.resolve("anywhere")));
        assertEquals(LinuxCalls.ENAMETOOLONG, linux.get().renameNoReplace(second, dir.resolve("x".repeat(5000))));
        assertEquals("another file", Files.readString(second));
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_22, disabledReason = "Java 17 to 21 have no foreign-function API: the JDK's calls")
    void settingTimesNeverFollowsASymbolicLink() throws IOException {
        Path target = Files.writeString(dir.resolve("target"), "elsewhere");
        Instant before = Files.getLastModifiedTime(target).toInstant();
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        Instant stamp = Instant.parse("2031-02-03T04:05:06.123456789Z");

        assertEquals(0, linux.get().setTimesNoFollow(link, stamp));
        assertEquals(stamp, Files.getLastModifiedTime(link, LinkOption.NOFOLLOW_LINKS).toInstant());
        assertEquals(before, Files.getLastModifiedTime(target).toInstant(), "the target is untouched");

        assertEquals(0, linux.get().setTimesNoFollow(target, stamp));
        assertEquals(stamp, Files.getLastModifiedTime(target).toInstant(), "to the nanosecond");
        assertEquals(LinuxCalls.ENOENT, linux.get().setTimesNoFollow(dir.resolve("gone"), stamp));
    }

    /** syncfs where the kernel answers its errors (5.17 and later on x86-64 or arm64; this machine's is newer), through a descriptor of a folder. */
    @Test
    @EnabledForJreRange(min = JRE.JAVA_22, disabledReason = "Java 17 to 21 have no foreign-function API: the JDK's calls")
    void syncfsGoesThroughADescriptorOfAFolderAndAnswersErrnos() throws IOException {
        assertTrue(linux.get().syncsFileSystems(), "Linux " + System.getProperty("os.version"));
        int fd = linux.get().openDirectory(dir);
        assertTrue(fd >= 0, "open answered " + fd);
        Files.writeString(dir.resolve("written"), "after the descriptor was opened");
        assertEquals(0, linux.get().syncFileSystem(fd));
        assertEquals(0, linux.get().close(fd));
        assertEquals(LinuxCalls.EBADF, linux.get().syncFileSystem(-1), "no descriptor");
        assertEquals(-LinuxCalls.ENOENT, linux.get().openDirectory(dir.resolve("gone")));
        assertEquals(-20, linux.get().openDirectory(dir.resolve("written")), "ENOTDIR: a file is not a folder");
        assertEquals(-LinuxCalls.ENAMETOOLONG, linux.get().openDirectory(dir.resolve("x".repeat(5000))));
    }
}
