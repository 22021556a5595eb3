package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which I/O errors mean "the filesystem is full" (507); every other stays a 500. */
class ApiErrorsTest {

    @Test
    void noSpaceAndQuotaAreAFullFilesystem() {
        assertEquals(Optional.of("No space left on device"),
                ApiErrors.filesystemFull(new IOException("No space left on device")));
        assertEquals(Optional.of("Disk quota exceeded"),
                ApiErrors.filesystemFull(new FileSystemException("/s/pending/x", "/s/tmp/y", "Disk quota exceeded")));
        assertEquals(Optional.of("No space left on device"), ApiErrors.filesystemFull(
                new UncheckedIOException(new IOException("No space left on device"))), "found in a cause");
    }

    @Test
    void otherErrorsAreNot() {
        assertEquals(Optional.empty(), ApiErrors.filesystemFull(new IOException("Read-only file system")));
        assertEquals(Optional.empty(), ApiErrors.filesystemFull(new IOException("Too many open files")));
        assertEquals(Optional.empty(), ApiErrors.filesystemFull(new IOException((String) null)));
        // Only the reason counts, not a file name that happens to hold the words.
        assertEquals(Optional.empty(), ApiErrors.filesystemFull(
                new AccessDeniedException("/s/No space left on device", null, "Permission denied")));
    }
}
