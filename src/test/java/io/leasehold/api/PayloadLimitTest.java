package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.spool.SpoolFolder;
import io.leasehold.spool.SpoolLayout;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** 413 for bodies over leasehold.item.max-bytes, declared up front or only found out while streaming. */
@QuarkusTest
@TestProfile(SmallPayloadsProfile.class)
class PayloadLimitTest {

    private static final int MAX = SmallPayloadsProfile.MAX_BYTES;

    @Inject
    SpoolLayout layout;

    @TestHTTPResource("/")
    URL base;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        b[n - 1] = 'z';
        return b;
    }

    @Test
    void exactlyTheLimitIsAccepted() throws IOException {
        String id = SpoolFixture.uniqueId("at-limit");
        byte[] body = bytes(MAX);
        given().queryParam("id", id).contentType("application/octet-stream").body(body).when().post("/items")
                .then().statusCode(201);
        assertArrayEquals(body, Files.readAllBytes(layout.file(SpoolFolder.PENDING, id)));
    }

    @Test
    void declaredContentLengthOverTheLimitIs413() {
        String id = SpoolFixture.uniqueId("declared");
        SpoolFixture.assertError(given().queryParam("id", id).contentType("application/octet-stream")
                .body(bytes(MAX + 1)).when().post("/items").then(), 413, "leasehold.item.max-bytes");
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);
        given().when().get("/items/{id}", id).then().statusCode(404);
    }

    @Test
    void chunkedBodyOverTheLimitIs413WithNothingLeft() throws IOException {
        String id = SpoolFixture.uniqueId("chunked-big");
        RawHttp.Answer answer = RawHttp.postChunked(base, "/items?id=" + id, bytes(4 * MAX), 300);

        assertEquals(413, answer.status(), answer.headers() + "\n" + answer.body());
        Map<?, ?> error = new ObjectMapper().readValue(answer.body(), Map.class);
        assertEquals(413, error.get("status"));
        assertTrue(String.valueOf(error.get("error")).contains("larger than " + MAX + " bytes"), answer.body());
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);
        given().when().get("/items/{id}", id).then().statusCode(404);
    }

    @Test
    void chunkedBodyJustOverTheLimitIs413() throws IOException {
        String id = SpoolFixture.uniqueId("chunked-one-over");
        RawHttp.Answer answer = RawHttp.postChunked(base, "/items?id=" + id, bytes(MAX + 1), 100);

        assertEquals(413, answer.status(), answer.headers() + "\n" + answer.body());
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);
    }

    @Test
    void chunkedBodyWithinTheLimitIsKeptWhole() throws IOException {
        String id = SpoolFixture.uniqueId("chunked-ok");
        byte[] body = bytes(MAX);
        RawHttp.Answer answer = RawHttp.postChunked(base, "/items?id=" + id, body, 100);

        assertEquals(201, answer.status(), answer.headers() + "\n" + answer.body());
        assertArrayEquals(body, Files.readAllBytes(layout.file(SpoolFolder.PENDING, id)));
        SpoolFixture.assertEmpty(layout, SpoolFolder.TMP);
        given().when().get("/items/{id}", id).then().statusCode(200).body("state", equalTo("pending"));
    }
}
