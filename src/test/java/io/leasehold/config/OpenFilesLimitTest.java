package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Reading the soft open-files limit from the text of /proc/<pid>/limits, and from this JVM's own. */
class OpenFilesLimitTest {

    /** As Linux 6.1 writes it: a header, then one padded row per limit. */
    private static final String LIMITS = String.join("\n",
            "Limit                     Soft Limit           Hard Limit           Units     ",
            "Max cpu time              unlimited            unlimited            seconds   ",
            "Max processes             96365                96365                processes ",
            "Max open files            128                  4096                 files     ",
            "Max locked memory         8388608              8388608              bytes     ",
            "");

    @Test
    void theSoftLimitOfTheOpenFilesRowIsRead() {
        assertEquals(OptionalLong.of(128), OpenFilesLimit.parse(LIMITS), "the soft limit, not the hard one");
    }

    @Test
    void unlimitedIsTheLargestLimit() {
        assertEquals(OptionalLong.of(Long.MAX_VALUE), OpenFilesLimit.parse(
                "Max open files            unlimited            unlimited            files     \n"));
    }

    @Test
    void withoutTheRowOrANumberNothingIsKnown() {
        assertEquals(OptionalLong.empty(), OpenFilesLimit.parse(LIMITS.replace("Max open files", "Max open filez")));
        assertEquals(OptionalLong.empty(), OpenFilesLimit.parse(LIMITS.replace("128  ", "lots ")));
        assertEquals(OptionalLong.empty(), OpenFilesLimit.parse(""));
    }

    @Test
    void thisProcessLimitIsTheOneTheKernelAndTheJvmReport() throws IOException {
        OptionalLong proc = OpenFilesLimit.parse(Files.readString(OpenFilesLimit.PROC_LIMITS));
        long jvm = ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getMaxFileDescriptorCount();
        assertEquals(OptionalLong.of(jvm), proc, "/proc/self/limits and the JVM's bean");
        assertEquals(proc, OpenFilesLimit.current());
    }
}
