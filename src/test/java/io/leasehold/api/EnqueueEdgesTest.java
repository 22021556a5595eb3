package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** POST /items at its edges: an id known while its first upload still streams, an upload file that vanishes. */
@QuarkusTest
class EnqueueEdgesTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int BODY = 64 * 1024;

    @Inject
    SpoolLayout layout;

    @Inject
    DrivenClock clock;

    @TestHTTPResource("/")
    URL base;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    /** The file in tmp/ an upload of {@code id} is being written to, once the server has started it. */
    private Optional<Path> uploadOf(String id) {
        try (Stream<Path> files = Files.list(layout.folder(SpoolFolder.TMP))) {
            return files.filter(p -> p.getFileName().toString().contains(id)).findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aSecondEnqueueWhileTheFirstStillUploadsIs409AndTheFirstLandsWhole() throws IOException {
        String id = SpoolFixture.uniqueId("streaming");
        byte[] first = HeldUpload.bytes(BODY, 'a');
        try (HeldUpload upload = HeldUpload.start(base, "/items?id=" + id, first, 1000)) {
            Await.until("the first upload is being written", WAIT, () -> uploadOf(id).isPresent());

            SpoolFixture.assertError(given().queryParam("id", id).body(HeldUpload.bytes(BODY, 'b')).when()
                    .post("/items").then(), 409, id);
            // Nothing of the second reached pending/, so a drain now has nothing to run.
            given().when().post("/drain").then().statusCode(200).body("claimed", equalTo(0));

            RawHttp.Answer answer = upload.finish();
            assertEquals(201, answer.status(), answer.body());
        }
        assertArrayEquals(first, Files.readAllBytes(layout.file(SpoolFolder.PENDING, id)));
        SpoolFixture.assertEmpty(layout, SpoolFolder.TMP, SpoolFolder.DONE);
    }

    @Test
    void anUploadWhoseTmpFileVanishesIsAnErrorAndLeavesNothingBehind() throws IOException {
        String id = SpoolFixture.uniqueId("vanished");
        try (HeldUpload upload = HeldUpload.start(base, "/items?id=" + id, HeldUpload.bytes(BODY, 'v'), 1000)) {
            Path file = Await.value("the upload is being written", WAIT, () -> uploadOf(id), Optional::isPresent)
                    .orElseThrow();
            Files.delete(file); // what another instance's stale-tmp cleanup does to a file it thinks abandoned

            RawHttp.Answer answer = upload.finish();
            assertTrue(answer.status() >= 500, "not 201 for nothing: " + answer.status() + " " + answer.body());
            assertTrue(answer.body().contains("upload") && answer.body().contains("vanished"), answer.body());
        }
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);
        given().when().get("/items/{id}", id).then().statusCode(404);
        // Nothing is left that makes the id known: sending it again works.
        given().queryParam("id", id).body("again").when().post("/items").then().statusCode(201);
        assertEquals("again", Files.readString(layout.file(SpoolFolder.PENDING, id)));
    }

    @Test
    void aClaimedIdIsKnownToo() throws IOException {
        String id = SpoolFixture.uniqueId("dup-claimed");
        ClaimName claim = new ClaimName(id, Generation.parse("1-zz9").orElseThrow(), clock.now());
        Files.writeString(layout.claimFile(claim), "held");

        SpoolFixture.assertError(given().queryParam("id", id).body("again").when().post("/items").then(), 409, id);
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);
        assertEquals("held", Files.readString(layout.claimFile(claim)));
    }
}
