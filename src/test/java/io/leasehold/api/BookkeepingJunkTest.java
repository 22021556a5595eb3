package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.testing.Fifo;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /items/{id} of a failed item whose bookkeeping is not a plain file of the spool's own. */
@QuarkusTest
class BookkeepingJunkTest {

    private static final String SECRET = "a secret that lives outside the spool";

    @Inject
    SpoolLayout layout;

    @TestHTTPResource("/")
    URL base;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    private Path outside() throws IOException {
        return Files.writeString(layout.root().resolveSibling(layout.root().getFileName() + "-outside-secret"), SECRET);
    }

    /** GET with a deadline: a worker blocked on the spool shows up as a timeout here, not as a hung test. */
    private JsonNode get(String id) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(base + "items/" + id))
                .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        return new ObjectMapper().readTree(answer.body());
    }

    @Test
    void aReasonThatIsASymlinkIsNeverFollowedNorServed() throws Exception {
        String id = SpoolFixture.uniqueId("reason-link");
        Files.writeString(layout.file(SpoolFolder.FAILED, id), "payload");
        Files.createSymbolicLink(layout.file(SpoolFolder.REASONS, id), outside());

        JsonNode item = get(id);
        assertEquals("failed", item.path("state").asText());
        assertFalse(item.path("reason").asText().contains("secret"), "served from outside: " + item);
        assertTrue(given().when().get("/spool").then().statusCode(200).extract().asString().contains("reasons"),
                "reported as junk");
    }

    @Test
    void aReasonThatIsAFifoNeitherBlocksTheAnswerNorIsRead() throws Exception {
        String id = SpoolFixture.uniqueId("reason-fifo");
        Files.writeString(layout.file(SpoolFolder.FAILED, id), "payload");
        Path fifo = layout.file(SpoolFolder.REASONS, id);
        Fifo.make(fifo);
        try {
            JsonNode item = get(id);
            assertEquals("failed", item.path("state").asText());
            assertTrue(item.path("reason").asText().startsWith("unknown"), item.toString());
        } finally {
            // A reader blocked on the FIFO (the bug) is released by a writer, so the test run can end. Opened
            // read-write, which never blocks on Linux, whether or not a reader waits.
            try (RandomAccessFile release = new RandomAccessFile(fifo.toFile(), "rw")) {
                release.write('x');
            }
        }
    }
}
