package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.spool.ItemState;
import io.quarkus.test.common.http.TestHTTPResource;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * 413 for bodies over leasehold.item.max-bytes, declared up front or only found out while streaming, and
 * for batch lines over it. Each backend's profile sets a small limit (the JetStream one past its inline
 * size, so the payloads at the limit are stored as objects).
 */
abstract class PayloadLimitContract extends BackendContract {

    @Inject
    LeaseholdConfig config;

    @TestHTTPResource("/")
    URL base;

    private int max() {
        return (int) config.item().maxBytes().asLongValue();
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
        byte[] body = bytes(max());
        given().queryParam("id", id).contentType("application/octet-stream").body(body).when().post("/items")
                .then().statusCode(201);
        assertArrayEquals(body, spool.payloadIn(ItemState.PENDING, id));
    }

    @Test
    void declaredContentLengthOverTheLimitIs413() throws IOException {
        String id = SpoolFixture.uniqueId("declared");
        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().queryParam("id", id).contentType("application/octet-stream")
                .body(bytes(max() + 1)).when().post("/items").then(), 413, "leasehold.item.max-bytes");
        assertEquals(before, spool.holdings());
        given().when().get("/items/{id}", id).then().statusCode(404);
    }

    @Test
    void chunkedBodyOverTheLimitIs413WithNothingLeft() throws IOException {
        String id = SpoolFixture.uniqueId("chunked-big");
        List<String> before = spool.holdings();
        RawHttp.Answer answer = RawHttp.postChunked(base, "/items?id=" + id, bytes(4 * max()), 300);

        assertEquals(413, answer.status(), answer.headers() + "\n" + answer.body());
        Map<?, ?> error = new ObjectMapper().readValue(answer.body(), Map.class);
        assertEquals(413, error.get("status"));
        assertTrue(String.valueOf(error.get("error")).contains("larger than " + max() + " bytes"), answer.body());
        assertEquals(before, spool.holdings());
        given().when().get("/items/{id}", id).then().statusCode(404);
    }

    @Test
    void chunkedBodyJustOverTheLimitIs413() throws IOException {
        String id = SpoolFixture.uniqueId("chunked-one-over");
        List<String> before = spool.holdings();
        RawHttp.Answer answer = RawHttp.postChunked(base, "/items?id=" + id, bytes(max() + 1), 100);

        assertEquals(413, answer.status(), answer.headers() + "\n" + answer.body());
        assertEquals(before, spool.holdings());
    }

    @Test
    void chunkedBodyWithinTheLimitIsKeptWhole() throws IOException {
        String id = SpoolFixture.uniqueId("chunked-ok");
        byte[] body = bytes(max());
        RawHttp.Answer answer = RawHttp.postChunked(base, "/items?id=" + id, body, 100);

        assertEquals(201, answer.status(), answer.headers() + "\n" + answer.body());
        assertArrayEquals(body, spool.payloadIn(ItemState.PENDING, id));
        spool.assertNoStaging();
        given().when().get("/items/{id}", id).then().statusCode(200).body("state", equalTo("pending"));
    }

    /** Four lines, the third of them {@code big}. */
    private static String withThird(String prefix, String big) {
        return BatchEnqueueContract.line(prefix + "-1", "p1") + BatchEnqueueContract.line(prefix + "-2", "p2") + big
                + "\n" + BatchEnqueueContract.line(prefix + "-4", "p4");
    }

    @Test
    void aBatchPayloadOverMaxBytesIs413NamingItsLineInEitherForm() throws IOException {
        String text = "x".repeat(max() + 1);
        String bytes = Base64.getEncoder().encodeToString(new byte[max() + 1]);
        String multiByte = "\u00e9".repeat(max() / 2 + 1); // max + 2 bytes in max / 2 + 1 characters
        for (String big : List.of("{\"id\":\"big-t\",\"payload\":\"" + text + "\"}",
                "{\"payloadBase64\":\"" + bytes + "\"}", "{\"payload\":\"" + multiByte + "\",\"id\":\"big-m\"}")) {
            List<String> before = spool.holdings();
            SpoolFixture.assertError(BatchEnqueueContract.post(withThird(SpoolFixture.uniqueId("big"), big)), 413,
                    "line 3: payload larger than " + max() + " bytes (leasehold.item.max-bytes)");
            assertEquals(before, spool.holdings(), "nothing written");
        }
        String exact = Base64.getEncoder().encodeToString(new byte[max()]);
        BatchEnqueueContract.post("{\"payloadBase64\":\"" + exact + "\"}\n").statusCode(201);
    }

    @Test
    void aBatchLineLongerThanAnyItemCouldNeedIs413BeforeItIsRead() throws IOException {
        long longest = 6L * max() + 1024;
        // Blanks between the fields: no string grows, only the line.
        String line = "{\"id\":\"long\"," + " ".repeat((int) longest) + "\"payload\":\"x\"}\n";
        byte[] body = (BatchEnqueueContract.line(SpoolFixture.uniqueId("first"), "x") + line)
                .getBytes(StandardCharsets.UTF_8);
        List<String> before = spool.holdings();
        RawHttp.Answer answer = RawHttp.postChunked(base, "/items/batch", body, 4096, "application/x-ndjson");
        assertEquals(413, answer.status(), answer.body());
        assertTrue(answer.body().contains("line 2 is longer than " + longest + " bytes"), answer.body());
        assertEquals(before, spool.holdings(), "nothing written");
    }
}
