package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which I/O errors mean "the filesystem is full" (507), which "descriptors ran out for now" (503 with
 * Retry-After); every other stays a 500.
 */
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

    @Test
    void descriptorsRunOutAreA503WithRetryAfterWhereverTheErrorTellsIt() {
        ApiErrors errors = new ApiErrors(null);
        for (IOException e : new IOException[] {new FileSystemException("/s/tmp/y", null, "Too many open files"),
                new IOException("wrapped", new IOException("Too many open files in system"))}) {
            jakarta.ws.rs.core.Response answer = errors.io(e);
            assertEquals(503, answer.getStatus(), e.toString());
            assertEquals("1", answer.getHeaderString("Retry-After"));
            org.junit.jupiter.api.Assertions.assertTrue(((ApiError) answer.getEntity()).error().contains(
                    "leasehold.item.max-uploads"), "names what to turn");
        }
        assertEquals(false, ApiErrors.descriptorsExhausted(new AccessDeniedException("/s/Too many open files", null,
                "Permission denied")), "a file name that holds the words is not the reason");
        IOException cleanUpFailed = new IOException("Input/output error");
        cleanUpFailed.addSuppressed(new FileSystemException("/s/ids/x", null, "Too many open files"));
        assertEquals(500, errors.io(cleanUpFailed).getStatus(), "the error that counts is the first, not its clean-up's");
        jakarta.ws.rs.core.Response kept = errors.io(new io.leasehold.spool.ItemStore.EnqueuedAnywayException(
                "item 'x' stays enqueued (do not send it again)", new IOException("Too many open files")));
        assertEquals(500, kept.getStatus(), "no retry is asked for an item that is in the spool");
    }
}
