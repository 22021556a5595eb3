package io.leasehold.api;

import static io.restassured.RestAssured.given;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.testing.Fifo;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The API suite on the spool directory (the default profile), and what a hostile file under an id does to it. */
@QuarkusTest
class DirectoryItemsApiTest extends ItemsApiContract {

    @Inject
    SpoolLayout layout;

    /** A FIFO would block the read for ever, a link would read another file: neither is opened. */
    @Test
    void aPayloadThatIsAFifoOrALinkIsRefusedUnread() throws Exception {
        String piped = SpoolFixture.uniqueId("piped");
        Fifo.make(layout.file(SpoolFolder.PENDING, piped));
        SpoolFixture.assertError(given().when().get("/items/{id}/payload", piped).then(), 409, "is not read");
        String linked = SpoolFixture.uniqueId("linked");
        Files.createSymbolicLink(layout.file(SpoolFolder.FAILED, linked), Files.writeString(
                layout.root().resolveSibling(linked + ".secret"), "secret"));
        SpoolFixture.assertError(given().when().get("/items/{id}/payload", linked).then(), 409, "is not read");
        Files.delete(layout.root().resolveSibling(linked + ".secret"));
    }

    /** A file larger than leasehold.item.max-bytes, dropped in by another program, is refused without being read. */
    @Test
    void aPayloadLargerThanTheBoundIsRefusedUnread() throws Exception {
        String big = SpoolFixture.uniqueId("big");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(layout.file(SpoolFolder.PENDING, big).toFile(), "rw")) {
            f.setLength(4L * 1024 * 1024 * 1024); // 4 GiB, sparse: past any heap this test runs with
        }
        SpoolFixture.assertError(given().when().get("/items/{id}/payload", big).then(), 409, "is not read");
        Files.delete(layout.file(SpoolFolder.PENDING, big));
    }
}
