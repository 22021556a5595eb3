package io.leasehold.it;

import static io.leasehold.it.Answers.assertError;
import static io.leasehold.it.Answers.assertItem;
import static io.leasehold.it.Answers.assertJson;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.leasehold.testing.Await;
import io.leasehold.testing.HttpReceiver;
import io.leasehold.testing.HttpReceiver.Received;
import io.leasehold.testing.ServiceProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged artifact as users run it, started like every other IT through {@code PackagedArtifact}: the
 * jar here, the native runner where the build made one ({@code ./mvnw verify -Dnative}). It pins down what
 * a native image gets wrong and the jar does not: the status and exact JSON of every answer (records,
 * Instants and exception mappers depend on reflection), the token filter, the exec handler's processes and
 * the http handler's client.
 */
class PackagedServiceIT {

    /** Three services start at once on two shared cores: generous, and only a limit. */
    private static final Duration START = Duration.ofSeconds(90);
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final String TOKEN = "packaged-token";
    private static final String BAD_ID = "invalid item id 'a~b': it must match [A-Za-z0-9][A-Za-z0-9._-]{0,127}"
            + " (no '~', '/' or leading '.')";
    /** Writes "<id> <epoch>" and the payload to $OUT/<id>; items named fail-* exit 3 with a word on stderr. */
    private static final String EXEC = "case \"$LEASEHOLD_ITEM_ID\" in"
            + " fail-*) echo \"no such order $LEASEHOLD_ITEM_ID\" >&2; exit 3 ;;"
            + " *) { echo \"$LEASEHOLD_ITEM_ID $LEASEHOLD_EPOCH\"; cat; } > \"$OUT/$LEASEHOLD_ITEM_ID\" ;; esac";

    private static Path work;
    private static HttpReceiver receiver;
    /** exec handler, payloads of at most 16 bytes, drained only by POST /drain. */
    private static ServiceProcess service;
    /** leasehold.api.token set. */
    private static ServiceProcess guarded;
    /** http handler POSTing to {@link #receiver}. */
    private static ServiceProcess forwarding;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createDirectories(Path.of("target", "it-work", "packaged-" + System.nanoTime())).toAbsolutePath();
        Files.createDirectories(work.resolve("out"));
        receiver = HttpReceiver.start();
        service = ServiceProcess.start("packaged", Map.of("leasehold.spool.dir", spool("exec").toString(),
                "leasehold.drain.auto", "false", "leasehold.item.max-bytes", "16", "leasehold.handler", "exec",
                "leasehold.handler.exec.command", EXEC), Map.of("OUT", work.resolve("out").toString()));
        guarded = ServiceProcess.start("packaged-guarded", Map.of("leasehold.spool.dir", spool("guarded").toString(),
                "leasehold.drain.auto", "false", "leasehold.api.token", TOKEN), Map.of());
        forwarding = ServiceProcess.start("packaged-http", Map.of("leasehold.spool.dir", spool("http").toString(),
                "leasehold.drain.auto", "false", "leasehold.handler", "http",
                "leasehold.handler.http.url", receiver.url("/events")), Map.of());
        // Started together so that their start-ups overlap; each must come up.
        for (ServiceProcess p : List.of(service, guarded, forwarding)) {
            p.awaitReady(START);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (ServiceProcess p : new ServiceProcess[] {service, guarded, forwarding}) {
            if (p != null) {
                p.close();
            }
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    private static Path spool(String name) {
        return work.resolve("spool-" + name);
    }

    private static HttpResponse<String> get(ServiceProcess p, String path) {
        return p.request(path, b -> b.GET());
    }

    private static HttpResponse<String> post(ServiceProcess p, String path, String body) {
        return p.request(path, b -> b.POST(BodyPublishers.ofString(body)));
    }

    private static HttpResponse<String> delete(ServiceProcess p, String path) {
        return p.request(path, b -> b.DELETE());
    }

    @Test
    void badIdsAre400WithAJsonReason() {
        assertError(post(service, "/items?id=a~b", "x"), 400, BAD_ID);
        assertError(post(service, "/items?id=", "x"), 400, "an item id is required");
        assertError(get(service, "/items/a~b"), 400, BAD_ID);
        assertError(delete(service, "/items/a~b"), 400, BAD_ID);
        assertError(post(service, "/items/a~b/retry", ""), 400, BAD_ID);
    }

    @Test
    void unknownItemsAre404WithAJsonReason() {
        assertError(get(service, "/items/ghost"), 404, "no item 'ghost'");
        assertError(delete(service, "/items/ghost"), 404, "no item 'ghost'");
        assertError(post(service, "/items/ghost/retry", ""), 404, "no item 'ghost'");
    }

    @Test
    void oversizedPayloadsAre413WithAJsonReasonAndLeaveNothing() throws IOException {
        String tooLarge = "payload larger than 16 bytes (leasehold.item.max-bytes)";
        // Declared by Content-Length: refused before the body is read.
        assertError(post(service, "/items?id=big-declared", "x".repeat(17)), 413, tooLarge);
        // Streamed without a length (chunked): refused once the count passes the limit.
        byte[] body = "y".repeat(64).getBytes(StandardCharsets.UTF_8);
        assertError(service.request("/items?id=big-streamed", b -> b.version(HttpClient.Version.HTTP_1_1)
                .POST(BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))), 413, tooLarge);

        assertEquals(List.of(), names(spool("exec").resolve("tmp")));
        assertError(get(service, "/items/big-declared"), 404, "no item 'big-declared'");
        assertError(get(service, "/items/big-streamed"), 404, "no item 'big-streamed'");
    }

    @Test
    void itemsGoThroughTheExecHandlerToDoneAndToFailedWithTheReason() throws IOException {
        HttpResponse<String> created = post(service, "/items?id=ok-1", "hello");
        assertJson(created, 201, "{\"id\":\"ok-1\",\"state\":\"pending\"}");
        assertTrue(created.headers().firstValue("Location").orElse("").endsWith("/items/ok-1"), created.headers().toString());
        assertJson(post(service, "/items?id=fail-1", "x"), 201, "{\"id\":\"fail-1\",\"state\":\"pending\"}");
        assertError(post(service, "/items?id=ok-1", "again"), 409, "item 'ok-1' already exists: an id names one"
                + " item until it is purged; see it with GET /items/ok-1 or enqueue under another id");
        assertError(post(service, "/items/ok-1/retry", ""), 409, "item 'ok-1' is pending, not failed");
        assertItem(get(service, "/items/ok-1"), 200, "{\"id\":\"ok-1\",\"state\":\"pending\",\"history\":[]}");
        JsonNode counts = Answers.json(get(service, "/spool"), 200);
        assertTrue(counts.path("oldestPendingAgeMs").canConvertToLong(), counts.toString());
        assertEquals(Answers.parse("{\"pending\":2,\"claimed\":0,\"scheduled\":0,\"retrying\":0,\"done\":0,\"failed\":0,"
                + "\"oldestPendingAgeMs\":"
                + counts.path("oldestPendingAgeMs").asLong() + ",\"ignored\":[]}"), counts);
        // Not an item: the drain pass leaves it alone and /spool lists it.
        Files.writeString(spool("exec").resolve("pending").resolve("not~an-item"), "junk");

        assertJson(post(service, "/drain?budget=20s", ""), 200, "{\"claimed\":2,\"tookOver\":0,\"done\":1,"
                + "\"failed\":1,\"retried\":0,\"lost\":0,\"handedBack\":0,\"idle\":true,\"paused\":false,\"budgetMs\":20000}");

        assertItem(get(service, "/items/ok-1"), 200, "{\"id\":\"ok-1\",\"state\":\"done\",\"history\":[]}");
        String failed = "{\"id\":\"fail-1\",\"state\":\"failed\",\"reason\":\"exit 3: no such order fail-1\"";
        assertItem(get(service, "/items/fail-1"), 200, failed + ",\"history\":[{\"attempt\":1,\"epoch\":0,"
                + "\"outcome\":\"failed\",\"reason\":\"exit 3: no such order fail-1\"}]}");
        assertItem(get(service, "/items?state=failed"), 200, "[" + failed + "}]"); // listings leave history out
        // The attempt's output: the child's exit status and the tails of its streams, beside its history.
        JsonNode shown = Answers.json(get(service, "/items/fail-1/attempts/1/output"), 200);
        assertEquals(List.of(1, 3), List.of(shown.path("attempt").asInt(), shown.path("status").asInt()), shown.toString());
        assertEquals("exec", shown.path("handler").asText());
        assertEquals(Answers.parse("[{\"name\":\"stdout\",\"text\":\"\",\"bytes\":0,\"kept\":\"tail\"},"
                + "{\"name\":\"stderr\",\"text\":\"no such order fail-1\\n\",\"bytes\":21,\"kept\":\"tail\"}]"),
                shown.path("parts"));
        assertError(get(service, "/items/ok-1/attempts/1/output"), 404, "no output is kept for attempt 1 of item 'ok-1':"
                + " no such attempt ran, its handler showed nothing, it is older than the latest 10, or the item was retried"
                + " by hand since; see its history with GET /items/ok-1");
        assertEquals("ok-1 0\nhello", Files.readString(work.resolve("out").resolve("ok-1")));
        assertEquals(List.of("ok-1"), names(work.resolve("out")));
        assertError(post(service, "/items/ok-1/retry", ""), 409, "item 'ok-1' is done, not failed");

        JsonNode after = Answers.json(get(service, "/spool"), 200);
        JsonNode junk = after.path("ignored").path(0);
        Instant.parse(junk.path("firstSeen").asText()); // an ISO-8601 instant, not a number or an object
        assertEquals(Answers.parse("{\"pending\":0,\"claimed\":0,\"scheduled\":0,\"retrying\":0,\"done\":1,\"failed\":1,"
                + "\"oldestPendingAgeMs\":0,"
                + "\"ignored\":[{\"folder\":\"pending\",\"name\":\"not~an-item\",\"problem\":\"not a valid item id\","
                + "\"firstSeen\":\"" + junk.path("firstSeen").asText() + "\"}]}"), after);

        assertEquals(1.0, service.metric("leasehold_attempts_total", "outcome=\"done\""));
        assertEquals(1.0, service.metric("leasehold_attempts_total", "outcome=\"failed\""));
        assertEquals(2.0, service.metric("leasehold_claims_total", ""));
        // The item gauges are refreshed every few seconds, not at each change.
        Await.value("leasehold_items pending/claimed/done/failed", SETTLE,
                () -> List.of("pending", "claimed", "done", "failed").stream()
                        .map(s -> service.metric("leasehold_items", "state=\"" + s + "\"")).toList(),
                seen -> seen.equals(List.of(0.0, 0.0, 1.0, 1.0)));
    }

    @Test
    void withoutABusItActsUnderEpochZeroAndIsReady() {
        String noBus = "{\"mode\":\"no-bus\",\"epoch\":0,\"reason\":\"no leasehold.nats.url (or NATS_URL) is set:"
                + " acting without a controller lease, epoch 0\"}";
        assertJson(get(service, "/lease"), 200, noBus);
        JsonNode ready = Answers.json(get(service, "/q/health/ready"), 200);
        assertEquals("UP", ready.path("status").asText(), ready.toString());
        assertEquals(Answers.parse("{\"name\":\"lease\",\"status\":\"UP\",\"data\":" + noBus + "}"), check(ready, "lease"));
        assertEquals(Answers.parse("{\"name\":\"spool\",\"status\":\"UP\",\"data\":{\"dir\":\"" + spool("exec")
                + "\"}}"), check(ready, "spool"));
        assertEquals(Answers.parse("{\"name\":\"drain\",\"status\":\"UP\",\"data\":{\"settlementsWaiting\":0,"
                + "\"claimsHeld\":0,\"paused\":false}}"), check(ready, "drain"));
        assertEquals(3, ready.path("checks").size(), ready.toString());
        assertEquals("UP", Answers.json(get(service, "/q/health/live"), 200).path("status").asText());
    }

    private static JsonNode check(JsonNode health, String name) {
        for (JsonNode check : health.path("checks")) {
            if (check.path("name").asText().equals(name)) {
                return check;
            }
        }
        throw new AssertionError("no check " + name + " in " + health);
    }

    /** In the prod profile too, not only in dev and test (quarkus.swagger-ui.always-include). */
    @Test
    void theApiDescriptionAndSwaggerUiAreServed() {
        HttpResponse<String> api = get(service, "/q/openapi?format=json");
        assertEquals(200, api.statusCode(), api.body());
        assertTrue(Answers.parse(api.body()).path("paths").has("/items/{id}"), api.body());
        HttpResponse<String> ui = get(service, "/q/swagger-ui/");
        assertEquals(200, ui.statusCode(), ui.body());
    }

    @Test
    void metricsAreInPrometheusText() {
        HttpResponse<String> metrics = get(service, "/q/metrics");
        assertEquals(200, metrics.statusCode(), metrics.body());
        for (String meter : List.of("leasehold_items{state=\"pending\"}", "leasehold_pending_oldest_age_seconds ",
                "leasehold_claims_held ", "leasehold_claims_total ", "leasehold_renewals_total ",
                "leasehold_takeovers_total ", "leasehold_claims_lost_total ", "leasehold_claims_handed_back_total ",
                "leasehold_settlements_failed_total ", "leasehold_outputs_not_kept_total ")) {
            assertTrue(metrics.body().lines().anyMatch(l -> l.startsWith(meter)), meter + " in:\n" + metrics.body());
        }
    }

    @Test
    void withATokenEveryCallWithoutItIs401AndChangesNothingButHealthAndMetricsStayOpen() {
        String needed = "this call needs Authorization: Bearer <leasehold.api.token>";
        assertError(get(guarded, "/items/t-1"), 401, needed);
        assertEquals(200, get(guarded, "/q/health/ready").statusCode());
        assertEquals(200, get(guarded, "/q/metrics").statusCode());
        assertEquals(200, get(guarded, "/").statusCode(), "the page itself, which then asks for the token");
        HttpResponse<String> refused = post(guarded, "/items?id=t-1", "x");
        assertError(refused, 401, needed);
        assertEquals("Bearer", refused.headers().firstValue("WWW-Authenticate").orElse(null));
        assertError(guarded.request("/items?id=t-1", b -> b.header("Authorization", "Bearer wrong")
                .POST(BodyPublishers.ofString("x"))), 401,
                "the token of Authorization: Bearer is not leasehold.api.token's: send the service's own");
        assertError(post(guarded, "/drain", ""), 401, needed);
        assertError(guarded.request("/items/t-1", b -> b.header("Authorization", "Bearer " + TOKEN).GET()), 404, "no item 't-1'");

        assertJson(guarded.request("/items?id=t-1", b -> b.header("Authorization", "Bearer " + TOKEN)
                .POST(BodyPublishers.ofString("x"))), 201, "{\"id\":\"t-1\",\"state\":\"pending\"}");
        assertError(delete(guarded, "/items/t-1"), 401, needed);
        assertItem(guarded.request("/items/t-1", b -> b.header("Authorization", "Bearer " + TOKEN).GET()), 200,
                "{\"id\":\"t-1\",\"state\":\"pending\",\"history\":[]}");
    }

    @Test
    void theHttpHandlerPostsABinaryCloudEventAndAReceiversRefusalFailsTheItem() {
        byte[] payload = {0, 1, 2, (byte) 0xfe, (byte) 0xff, '\n'};
        assertJson(forwarding.request("/items?id=event-1", b -> b.POST(BodyPublishers.ofByteArray(payload))), 201,
                "{\"id\":\"event-1\",\"state\":\"pending\"}");
        assertJson(post(forwarding, "/items?id=s422-refused", "no"), 201, "{\"id\":\"s422-refused\",\"state\":\"pending\"}");
        assertJson(post(forwarding, "/drain?budget=20s", ""), 200, "{\"claimed\":2,\"tookOver\":0,\"done\":1,"
                + "\"failed\":1,\"retried\":0,\"lost\":0,\"handedBack\":0,\"idle\":true,\"paused\":false,\"budgetMs\":20000}");

        Received event = receiver.last("event-1").orElseThrow(() -> new AssertionError("no event-1 in "
                + receiver.received()));
        assertEquals(1, receiver.all("event-1").size(), "one attempt, one request");
        assertEquals("POST /events", event.method() + " " + event.path());
        assertEquals("1.0", event.header("ce-specversion"));
        assertEquals("event-1", event.header("ce-id"));
        assertEquals("/leasehold" + spool("http"), event.header("ce-source"));
        assertEquals("io.leasehold.item", event.header("ce-type"));
        assertEquals("application/octet-stream", event.header("Content-Type"));
        assertEquals("0", event.header("Leasehold-Epoch"));
        assertEquals("1", event.header("Leasehold-Attempt"));
        assertArrayEquals(payload, event.body());

        assertItem(get(forwarding, "/items/event-1"), 200, "{\"id\":\"event-1\",\"state\":\"done\",\"history\":[]}");
        assertItem(get(forwarding, "/items/s422-refused"), 200, "{\"id\":\"s422-refused\",\"state\":\"failed\","
                + "\"reason\":\"HTTP 422: answer 422 for s422-refused\",\"history\":[{\"attempt\":1,\"epoch\":0,"
                + "\"outcome\":\"failed\",\"reason\":\"HTTP 422: answer 422 for s422-refused\"}]}");
        JsonNode shown = Answers.json(get(forwarding, "/items/s422-refused/attempts/1/output"), 200);
        assertEquals(422, shown.path("status").asInt(), shown.toString());
        assertEquals(Answers.parse("[{\"name\":\"body\",\"text\":\"answer 422 for s422-refused\",\"bytes\":27,"
                + "\"kept\":\"start\"}]"), shown.path("parts"));
    }

    private static List<String> names(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
