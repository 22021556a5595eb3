package io.leasehold.api;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.directory.SpoolRecount;
import io.leasehold.testing.DrivenClock;
import io.quarkus.arc.Arc;
import io.restassured.response.ValidatableResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/** Real files in the test spool: emptying it between tests, looking into its folders, planting entries. */
final class SpoolFixture {

    private static final AtomicLong SEQUENCE = new AtomicLong();

    private SpoolFixture() {
    }

    /** An id no other test in this run uses, so tests never see each other's items. */
    static String uniqueId(String prefix) {
        return prefix + "-" + Long.toString(System.nanoTime(), 36) + "-" + SEQUENCE.incrementAndGet();
    }

    /**
     * Empties every folder of the spool, leaving the folders themselves (the app created them at start
     * and other beans hold their paths). Symlinks are removed, never followed.
     */
    static void empty(SpoolLayout layout) {
        try {
            for (SpoolFolder folder : SpoolFolder.values()) {
                Path dir = layout.folder(folder);
                if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    try (Stream<Path> entries = Files.list(dir)) {
                        for (Path entry : entries.toList()) {
                            deleteTree(entry);
                        }
                    }
                }
            }
            layout.createFolders();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        recount(); // emptied from outside the instance: its census learns of it as of another program's changes
    }

    /**
     * One recount of the census (what its tick does every leasehold.spool.recount-every), finished when
     * this returns: for changes made outside the instance, which GET /spool shows only after one.
     */
    static void recount() {
        Arc.container().instance(DrivenClock.class).get().tick(SpoolRecount.TICK);
    }

    static void deleteTree(Path path) throws IOException {
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> all = Files.walk(path)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        } else {
            Files.deleteIfExists(path);
        }
    }

    /** Entry names in one folder, sorted. */
    static List<String> names(SpoolLayout layout, SpoolFolder folder) {
        try (Stream<Path> entries = Files.list(layout.folder(folder))) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every entry under the spool, every folder's included (ids/, tmp/ and what is staged in it), by path. */
    static List<String> census(SpoolLayout layout) {
        try (Stream<Path> all = Files.walk(layout.root())) {
            return all.map(p -> layout.root().relativize(p).toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void assertEmpty(SpoolLayout layout, SpoolFolder... folders) {
        for (SpoolFolder folder : folders) {
            assertEquals(List.of(), names(layout, folder), folder.dirName() + "/ should be empty");
        }
    }

    /** Drops an item into pending/ the way another program would, with a chosen write time. */
    static Path plantPending(SpoolLayout layout, String id, String payload, Instant written) throws IOException {
        Path file = layout.file(SpoolFolder.PENDING, id);
        Files.writeString(file, payload);
        Files.setLastModifiedTime(file, FileTime.from(written));
        return file;
    }

    /** Checks the JSON error body every error answer carries. */
    static void assertError(ValidatableResponse response, int status, String messagePart) {
        response.statusCode(status)
                .contentType(containsString("application/json"))
                .body("status", equalTo(status))
                .body("error", containsString(messagePart));
    }
}
