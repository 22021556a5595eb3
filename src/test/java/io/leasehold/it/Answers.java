package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;

/** Exact checks of what a packaged service answered: the status, a JSON media type and the whole body. */
final class Answers {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Answers() {
    }

    /** The body as JSON, once the status is {@code status} and the media type application/json. */
    static JsonNode json(HttpResponse<String> answer, int status) {
        String what = answer.request().method() + " " + answer.uri() + " answered " + answer.body();
        assertEquals(status, answer.statusCode(), what);
        String type = answer.headers().firstValue("Content-Type").orElse("(none)");
        assertEquals("application/json", type.split(";")[0].strip().toLowerCase(), "Content-Type of " + what);
        return parse(answer.body());
    }

    /** The body is exactly {@code expected} (as JSON: member order aside). */
    static void assertJson(HttpResponse<String> answer, int status, String expected) {
        assertEquals(parse(expected), json(answer, status), answer.uri().toString());
    }

    /** An error answer: {@code {"status":n,"error":"..."}} and nothing else. */
    static void assertError(HttpResponse<String> answer, int status, String error) {
        ObjectNode expected = JSON.createObjectNode().put("status", status).put("error", error);
        assertEquals(expected, json(answer, status), answer.request().method() + " " + answer.uri());
    }

    /** {@code POST /items?id=id} answered 201 {@code {"id":id,"state":"pending"}}. */
    static void assertEnqueued(ServiceProcess service, String id, String payload) {
        assertJson(service.enqueue(id, payload), 201, "{\"id\":\"" + id + "\",\"state\":\"pending\"}");
    }

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + json, e);
        }
    }
}
