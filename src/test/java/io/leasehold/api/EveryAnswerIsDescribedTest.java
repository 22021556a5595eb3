package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every answer the API really gives is in its description (/q/openapi): a 415 batch, a 406 Accept, a
 * 507 cancel. OpenApiTest compares the description with a hand-written list; these make the calls.
 */
@QuarkusTest
class EveryAnswerIsDescribedTest {

    private static Set<String> described(String path, String method) throws Exception {
        String body = given().queryParam("format", "json").when().get("/q/openapi").then().statusCode(200)
                .extract().asString();
        JsonNode responses = new ObjectMapper().readTree(body).path("paths").path(path).path(method).path("responses");
        Set<String> codes = new TreeSet<>();
        responses.fieldNames().forEachRemaining(codes::add);
        return codes;
    }

    /** POST /items/batch @Consumes application/x-ndjson: a JSON upload is answered 415 (ApiErrors.web). */
    @Test
    void aBatchOfAnotherContentTypeIsAnswered415AndDescribedSo() throws Exception {
        given().contentType("application/json").body("{\"id\":\"b-415\",\"payload\":\"x\"}")
                .when().post("/items/batch").then().statusCode(415);
        Set<String> codes = described("/items/batch", "post");
        assertTrue(codes.contains("415"), "post /items/batch answers 415 but describes " + codes);
    }

    /** Every call @Produces application/json: an Accept it cannot meet is answered 406. */
    @Test
    void anAcceptItCannotMeetIsAnswered406AndDescribedSo() throws Exception {
        given().accept("text/plain").when().get("/spool").then().statusCode(406);
        Set<String> codes = described("/spool", "get");
        assertTrue(codes.contains("406"), "get /spool answers 406 but describes " + codes);
    }

    /**
     * DELETE /items/{id} writes the "cancelled" record (ItemMoves.cancel → writeRecord): on a full spool
     * filesystem it is answered 507 (seen on a 2 MiB tmpfs: {"status":507,"error":"the filesystem of the
     * spool ... is full"}), which its description does not list.
     */
    @Test
    void aCancelOnAFullDiskIsDescribedAs507() throws Exception {
        Set<String> codes = described("/items/{id}", "delete");
        assertTrue(codes.contains("507"), "delete /items/{id} answers 507 on a full disk but describes " + codes);
    }
}
