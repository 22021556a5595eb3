package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.testing.Fifo;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The purge of one item on the spool directory (the default profile). */
@QuarkusTest
class DirectoryPurgeItemTest extends PurgeItemContract {

    @Inject
    SpoolLayout layout;

    /**
     * done/<id> replaced by a symlink, a FIFO or a directory: the id stays reserved (an enqueue under it is 409
     * "already exists"), so a purge must not answer 404 "no item": it answers 409 naming done/<id> as junk to
     * remove, as it does for a settled file with a second name, and leaves it alone.
     */
    @Test
    void junkInPlaceOfASettledItemIs409NamingItNot404() throws Exception {
        for (String kind : List.of("symlink", "fifo", "directory")) {
            String id = SpoolFixture.uniqueId("purge-junk-" + kind);
            given().queryParam("id", id).body("x").when().post("/items").then().statusCode(201);
            given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));
            Path done = layout.file(SpoolFolder.DONE, id);
            Path elsewhere = layout.root().resolveSibling(id + ".moved");
            Files.move(done, elsewhere);
            switch (kind) {
                case "symlink" -> Files.createSymbolicLink(done, elsewhere);
                case "fifo" -> Fifo.make(done);
                default -> Files.createDirectory(done);
            }
            try {
                SpoolFixture.assertError(given().queryParam("id", id).body("again").when().post("/items").then(), 409,
                        "already exists");
                SpoolFixture.assertError(given().when().post("/items/{id}/purge", id).then(), 409, "done/" + id);
                assertTrue(Files.exists(done, java.nio.file.LinkOption.NOFOLLOW_LINKS), kind + " left alone");
                assertTrue(Files.exists(elsewhere), "what a link names is never removed");
            } finally {
                Files.delete(done);
                Files.move(elsewhere, done);
            }
        }
    }
}
