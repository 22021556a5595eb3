package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;

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

    /**
     * An item's view (or a list of them): exactly {@code expected} once its times are taken out, which
     * must be there as instants (enqueuedAt always, settledAt once settled, each attempt's start and end)
     * with each attempt's holder an instance tag.
     */
    static void assertItem(HttpResponse<String> answer, int status, String expected) {
        assertEquals(parse(expected), withoutTimes(json(answer, status)), answer.uri().toString());
    }

    private static JsonNode withoutTimes(JsonNode view) {
        if (view.isArray()) {
            ArrayNode out = JSON.createArrayNode();
            view.forEach(each -> out.add(withoutTimes(each)));
            return out;
        }
        ObjectNode copy = view.deepCopy();
        Instant.parse(copy.remove("enqueuedAt").asText());
        JsonNode settled = copy.remove("settledAt");
        boolean isSettled = List.of("done", "failed").contains(copy.path("state").asText());
        assertEquals(isSettled, settled != null, "settledAt only once settled: " + view);
        if (settled != null) {
            Instant.parse(settled.asText());
        }
        for (JsonNode attempt : copy.path("history")) {
            ObjectNode a = (ObjectNode) attempt;
            Instant.parse(a.remove("startedAt").asText());
            Instant.parse(a.remove("endedAt").asText());
            String holder = a.remove("holder").asText();
            assertTrue(holder.matches("[a-z0-9]{1,22}"), "an instance tag: " + holder);
        }
        return copy;
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
