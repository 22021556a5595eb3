package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The API's description at /q/openapi names every call, and for each every answer it can give: the
 * errors particular to it, and those of every call (500, 503; 401 where a token guards it), each with
 * the error body's schema. Swagger UI is served beside it.
 */
@QuarkusTest
class OpenApiTest {

    @jakarta.inject.Inject
    io.leasehold.spool.AttemptOutputs outputs;

    private static JsonNode description() throws Exception {
        String body = given().queryParam("format", "json").when().get("/q/openapi").then().statusCode(200)
                .extract().asString();
        return new ObjectMapper().readTree(body);
    }

    private static Set<String> answers(JsonNode api, String path, String method) {
        JsonNode responses = api.path("paths").path(path).path(method).path("responses");
        assertTrue(responses.isObject(), method + " " + path + " is described");
        Set<String> codes = new TreeSet<>();
        responses.fieldNames().forEachRemaining(codes::add);
        return codes;
    }

    @Test
    void everyCallIsDescribedWithEveryAnswerItGives() throws Exception {
        JsonNode api = description();
        Map<String, Set<String>> expected = Map.ofEntries(
                Map.entry("post /items", Set.of("201", "400", "401", "403", "406", "408", "409", "413", "500", "503", "507")),
                Map.entry("get /items", Set.of("200", "400", "401", "406", "500", "503")),
                Map.entry("delete /items", Set.of("200", "400", "401", "403", "406", "500", "503", "507")),
                Map.entry("post /items/retry", Set.of("200", "400", "401", "403", "406", "500", "503", "507")),
                Map.entry("get /items/{id}/payload", Set.of("200", "400", "401", "404", "406", "409", "500", "503")),
                Map.entry("get /items/{id}/attempts/{n}/output", Set.of("200", "400", "401", "404", "406", "409", "500", "503")),
                Map.entry("get /items/{id}", Set.of("200", "400", "401", "404", "406", "500", "503")),
                Map.entry("delete /items/{id}", Set.of("200", "400", "401", "403", "404", "406", "409", "500", "503", "507")),
                Map.entry("post /items/{id}/retry", Set.of("200", "400", "401", "403", "404", "406", "409", "500", "503", "507")),
                Map.entry("post /items/{id}/purge", Set.of("200", "400", "401", "403", "404", "406", "409", "500", "503", "507")),
                Map.entry("post /items/batch", Set.of("201", "400", "401", "403", "406", "408", "409", "413", "415", "500", "503", "507")),
                Map.entry("post /drain", Set.of("200", "400", "401", "403", "406", "500", "503")),
                Map.entry("get /drain", Set.of("200", "401", "406", "500", "503")),
                Map.entry("post /drain/pause", Set.of("200", "401", "403", "406", "500", "503", "507")),
                Map.entry("post /drain/resume", Set.of("200", "401", "403", "406", "500", "503", "507")),
                Map.entry("get /spool", Set.of("200", "401", "406", "500", "503")),
                Map.entry("get /stats", Set.of("200", "400", "401", "406", "500", "503")),
                Map.entry("get /lease", Set.of("200", "401", "406", "500", "503")),
                Map.entry("get /schedules", Set.of("200", "401", "406", "500", "503")),
                Map.entry("post /schedules/{name}/trigger", Set.of("201", "401", "403", "404", "406", "409", "500", "503", "507")),
                Map.entry("post /schedules/{name}/pause", Set.of("200", "401", "403", "404", "406", "500", "503", "507")),
                Map.entry("post /schedules/{name}/resume", Set.of("200", "401", "403", "404", "406", "500", "503", "507")));
        expected.forEach((call, codes) -> {
            String[] parts = call.split(" ");
            assertEquals(codes, answers(api, parts[1], parts[0]), call);
        });
        Set<String> ours = new TreeSet<>();
        for (Iterator<String> paths = api.path("paths").fieldNames(); paths.hasNext();) {
            String path = paths.next();
            api.path("paths").path(path).fieldNames().forEachRemaining(method -> ours.add(method + " " + path));
        }
        ours.removeIf(call -> call.contains(" /q/"));
        assertEquals(new TreeSet<>(expected.keySet()), ours, "no call left undescribed");
    }

    /**
     * A client generated from the description names each call by its own operationId, groups calls by tag, and
     * sends the bearer token on every call, as the service asks for it once a token is set.
     */
    @Test
    void everyCallHasItsOwnOperationIdATagAndTheBearerScheme() throws Exception {
        JsonNode api = description();
        JsonNode scheme = api.path("components").path("securitySchemes").path(ErrorAnswers.TOKEN_SCHEME);
        assertEquals("http", scheme.path("type").asText(), scheme.toString());
        assertEquals("bearer", scheme.path("scheme").asText(), scheme.toString());
        Set<String> operationIds = new TreeSet<>();
        int calls = 0;
        for (Iterator<String> paths = api.path("paths").fieldNames(); paths.hasNext();) {
            String path = paths.next();
            if (path.startsWith("/q/")) {
                continue;
            }
            for (Iterator<Map.Entry<String, JsonNode>> ops = api.path("paths").path(path).fields(); ops.hasNext();) {
                Map.Entry<String, JsonNode> op = ops.next();
                String call = op.getKey() + " " + path;
                calls++;
                String operationId = op.getValue().path("operationId").asText();
                assertTrue(operationId.matches("[a-z][A-Za-z]+"), call + ": operationId '" + operationId + "'");
                assertTrue(operationIds.add(operationId), call + ": operationId " + operationId + " is used twice");
                assertTrue(op.getValue().path("tags").size() > 0, call + " has no tag");
                JsonNode security = op.getValue().path("security");
                assertEquals("[{\"" + ErrorAnswers.TOKEN_SCHEME + "\":[]}]", security.toString(), call);
            }
        }
        assertEquals(22, calls, "calls described: " + operationIds);
    }

    /**
     * A generated client types what the calls take and answer: numbers as integers with their bounds, states as
     * enums, durations and instants with their formats, ids with their grammar, the required marked, and the
     * bodies of the 201s described.
     */
    @Test
    void parametersAreTypedAndBoundedAndTheCreatedBodiesDescribed() throws Exception {
        JsonNode api = description();
        JsonNode limit = parameter(api, "/items", "get", "limit").path("schema");
        assertEquals("integer", limit.path("type").asText(), limit.toString());
        assertEquals(1, limit.path("minimum").asInt(), limit.toString());
        assertEquals(10000, limit.path("maximum").asInt(), limit.toString());
        assertEquals("[\"pending\",\"claimed\",\"scheduled\",\"retrying\",\"done\",\"failed\"]",
                parameter(api, "/items", "get", "state").path("schema").path("enum").toString());
        assertEquals("[\"done\",\"failed\"]", parameter(api, "/items", "delete", "state").path("schema").path("enum")
                .toString());
        assertTrue(parameter(api, "/items", "delete", "state").path("required").asBoolean());
        assertEquals("[\"failed\"]", parameter(api, "/items/retry", "post", "state").path("schema").path("enum").toString());
        assertTrue(parameter(api, "/items/retry", "post", "state").path("required").asBoolean());
        for (String[] duration : new String[][] {{"/drain", "post", "budget"}, {"/items", "post", "delay"},
                {"/items", "delete", "olderThan"}}) {
            assertEquals("duration", parameter(api, duration[0], duration[1], duration[2]).path("schema").path("format")
                    .asText(), String.join(" ", duration));
        }
        assertEquals("date-time", parameter(api, "/items", "post", "notBefore").path("schema").path("format").asText());
        for (String[] id : new String[][] {{"/items", "post", "id"}, {"/items/{id}", "get", "id"},
                {"/items/{id}", "delete", "id"}, {"/items/{id}/retry", "post", "id"}, {"/items/{id}/purge", "post", "id"}}) {
            assertEquals(ApiSchemas.ID_PATTERN, parameter(api, id[0], id[1], id[2]).path("schema").path("pattern").asText(),
                    String.join(" ", id));
        }
        for (String[] created : new String[][] {{"/items", "post", "Created"}, {"/items/batch", "post", "Enqueued"},
                {"/schedules/{name}/trigger", "post", "Created"}}) {
            JsonNode body = api.path("paths").path(created[0]).path(created[1]).path("responses").path("201")
                    .path("content").path("application/json").path("schema");
            assertEquals("#/components/schemas/" + created[2], body.path("$ref").asText(), String.join(" ", created));
        }
    }

    /** What the description says every body carries, the service's answers carry, with states from its enums. */
    @Test
    void theAnswersCarryEveryRequiredFieldAndTheirStatesAreInTheEnums() throws Exception {
        JsonNode api = description();
        ObjectMapper json = new ObjectMapper();
        String id = SpoolFixture.uniqueId("described");
        assertCarries(api, "Created", json.readTree(given().queryParam("id", id).body("p").when().post("/items").then()
                .statusCode(201).extract().asString()));
        assertCarries(api, "ItemView", json.readTree(given().when().get("/items/{id}", id).then().statusCode(200)
                .extract().asString()));
        assertCarries(api, "SpoolView", json.readTree(given().when().get("/spool").then().statusCode(200).extract()
                .asString()));
        JsonNode batch = json.readTree(given().contentType("application/x-ndjson")
                .body(("{\"id\":\"" + id + "-b\",\"payload\":\"p\"}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .when().post("/items/batch").then()
                .statusCode(201).extract().asString());
        assertCarries(api, "Enqueued", batch);
        assertCarries(api, "Created", batch.path("items").get(0));
        assertCarries(api, "ItemView", json.readTree(given().when().delete("/items/{id}", id).then().statusCode(200)
                .extract().asString()));
        assertCarries(api, "DrainState", json.readTree(given().when().get("/drain").then().statusCode(200).extract()
                .asString()));
        assertCarries(api, "DrainReport", json.readTree(given().queryParam("budget", "1ms").when().post("/drain").then()
                .statusCode(200).extract().asString()));
        outputs.keep(id, io.leasehold.spool.AttemptOutput.of(1, "exec", null, java.time.Instant.now(),
                new io.leasehold.core.HandlerOutput(null, java.util.List.of(
                        new io.leasehold.core.HandlerOutput.Part("stdout", "", 0, "tail")))));
        JsonNode output = json.readTree(given().when().get("/items/{id}/attempts/1/output", id).then().statusCode(200)
                .extract().asString());
        assertCarries(api, "AttemptOutput", output);
        assertCarries(api, "Part", output.path("parts").get(0));
        assertEquals("[\"tail\",\"start\"]", api.path("components").path("schemas").path("Part").path("properties")
                .path("kept").path("enum").toString());
    }

    private static void assertCarries(JsonNode api, String schemaName, JsonNode answer) {
        JsonNode schema = api.path("components").path("schemas").path(schemaName);
        assertTrue(schema.path("required").size() > 0, schemaName + " names no required field");
        for (JsonNode field : schema.path("required")) {
            assertTrue(answer.has(field.asText()), schemaName + " answer lacks " + field.asText() + ": " + answer);
        }
        JsonNode states = schema.path("properties").path("state").path("enum");
        if (answer.has("state")) {
            assertTrue(states.size() > 0, schemaName + ".state has no enum");
            boolean listed = false;
            for (JsonNode state : states) {
                listed |= state.asText().equals(answer.path("state").asText());
            }
            assertTrue(listed, schemaName + ".state " + answer.path("state") + " is not in " + states);
        }
    }

    /** A schedule's name is described with its grammar; the upload's own Content-Length is no argument of a client's. */
    @Test
    void scheduleNamesHaveTheirGrammarAndContentLengthIsNoParameter() throws Exception {
        JsonNode api = description();
        for (String call : new String[] {"trigger", "pause", "resume"}) {
            assertEquals(ApiSchemas.SCHEDULE_NAME_PATTERN, parameter(api, "/schedules/{name}/" + call, "post", "name")
                    .path("schema").path("pattern").asText(), call);
        }
        java.util.regex.Pattern described = java.util.regex.Pattern.compile(ApiSchemas.SCHEDULE_NAME_PATTERN);
        for (String name : new String[] {"a", "nightly-report", "x_1", "x".repeat(64), "x".repeat(65), "a.b", "-a", ""}) {
            assertEquals(io.leasehold.core.FireTimeIds.isName(name), described.matcher(name).matches(), "'" + name + "'");
        }
        assertTrue(!parameters(api, "/items", "post").containsKey("Content-Length"), parameters(api, "/items", "post")
                .toString());
    }

    /** The id pattern in the description is the grammar the service checks, on ids either side of its edges. */
    @Test
    void theDescribedIdPatternIsTheGrammarTheServiceChecks() {
        java.util.regex.Pattern described = java.util.regex.Pattern.compile(ApiSchemas.ID_PATTERN);
        for (String id : new String[] {"a", "A9", "0", "a.b_c-d", "x".repeat(128), "x".repeat(129), ".hidden", "-x", "_x",
                "a~b", "a/b", "sp ace", "é", "", "a\n"}) {
            assertEquals(io.leasehold.core.ItemId.isValid(id), described.matcher(id).matches(), "'" + id + "'");
        }
    }

    private static JsonNode parameter(JsonNode api, String path, String method, String name) {
        for (JsonNode p : api.path("paths").path(path).path(method).path("parameters")) {
            if (p.path("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError(method + " " + path + " has no parameter " + name);
    }

    /** The scheduling parameters, and the states a listing takes, are described where they are taken. */
    @Test
    void theScheduleParametersAndTheListedStatesAreDescribed() throws Exception {
        JsonNode api = description();
        Map<String, String> enqueue = parameters(api, "/items", "post");
        assertTrue(enqueue.get("notBefore").contains("ISO-8601"), enqueue.toString());
        assertTrue(enqueue.get("delay").contains("duration"), enqueue.toString());
        assertTrue(api.path("paths").path("/items").path("post").path("responses").path("400").path("description")
                .asText().contains("notBefore or delay"));
        assertTrue(parameters(api, "/items", "get").get("state").contains("scheduled"));
        assertTrue(api.path("paths").path("/items/batch").path("post").path("responses").path("400")
                .path("description").asText().contains("notBefore or delay"), "the batch says it refuses them");
    }

    private static Map<String, String> parameters(JsonNode api, String path, String method) {
        Map<String, String> out = new java.util.HashMap<>();
        api.path("paths").path(path).path(method).path("parameters")
                .forEach(p -> out.put(p.path("name").asText(), p.path("description").asText()));
        return out;
    }

    @Test
    void everyErrorAnswerCarriesTheErrorBody() throws Exception {
        JsonNode api = description();
        assertEquals(Set.of("status", "error"), fields(api.path("components").path("schemas").path("ApiError")
                .path("properties")));
        for (Iterator<String> paths = api.path("paths").fieldNames(); paths.hasNext();) {
            String path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> ops = api.path("paths").path(path).fields(); ops.hasNext();) {
                Map.Entry<String, JsonNode> op = ops.next();
                for (Iterator<Map.Entry<String, JsonNode>> rs = op.getValue().path("responses").fields(); rs.hasNext();) {
                    Map.Entry<String, JsonNode> r = rs.next();
                    if (r.getKey().startsWith("4") || r.getKey().startsWith("5")) {
                        assertEquals("#/components/schemas/ApiError", r.getValue().path("content")
                                .path("application/json").path("schema").path("$ref").asText(),
                                op.getKey() + " " + path + " " + r.getKey());
                    }
                }
            }
        }
    }

    /** The batch's body: NDJSON, a string of BatchLine objects (typed, bounded, one payload field of two), with an example the service takes. */
    @Test
    void theBatchBodyIsDescribedAsLinesOfTypedObjectsWithATwoLineExample() throws Exception {
        JsonNode api = description();
        JsonNode body = api.path("paths").path("/items/batch").path("post").path("requestBody");
        assertEquals("true " + Set.of(BatchResource.NDJSON), body.path("required") + " " + fields(body.path("content")));
        JsonNode ndjson = body.path("content").path(BatchResource.NDJSON);
        assertEquals("string", ndjson.path("schema").path("type").asText(), ndjson.toString());
        assertEquals("#/components/schemas/BatchLine", ndjson.path("schema").path("x-ndjson-line").path("$ref").asText());
        JsonNode line = api.path("components").path("schemas").path("BatchLine");
        assertEquals(Set.of("id", "payload", "payloadBase64"), fields(line.path("properties")), line.toString());
        JsonNode id = line.path("properties").path("id");
        assertEquals(ApiSchemas.ID_PATTERN + " 1 128", id.path("pattern").asText() + " " + id.path("minLength") + " "
                + id.path("maxLength"));
        assertEquals("byte", line.path("properties").path("payloadBase64").path("format").asText());
        assertEquals("[{\"required\":[\"payload\"]},{\"required\":[\"payloadBase64\"]}]", line.path("oneOf").toString());
        assertEquals("false", line.path("additionalProperties").toString(), "an unknown field is a 400");
        String example = ndjson.path("examples").path("twoItems").path("value").asText();
        assertEquals(BatchResource.EXAMPLE, example, "two lines, as text: " + ndjson);
        given().contentType(BatchResource.NDJSON).body(example.replace("invoice-42", SpoolFixture.uniqueId("example")).getBytes())
                .when().post("/items/batch").then().statusCode(201).body("items.size()", org.hamcrest.Matchers.equalTo(2));
    }

    private static Set<String> fields(JsonNode node) {
        Set<String> out = new TreeSet<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void swaggerUiIsServed() {
        String page = given().when().get("/q/swagger-ui/").then().statusCode(200).extract().asString();
        assertTrue(page.contains("swagger-ui"), page.substring(0, Math.min(200, page.length())));
    }
}
