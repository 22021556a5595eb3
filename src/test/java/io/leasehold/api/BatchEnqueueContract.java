package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ItemId;
import io.leasehold.spool.ItemState;
import io.leasehold.testing.Await;
import io.quarkus.test.common.http.TestHTTPResource;
import io.restassured.response.ValidatableResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * POST /items/batch: all or nothing, in line order, refusals naming their line with nothing written (its
 * 413 limits are in {@link PayloadLimitContract}).
 */
abstract class BatchEnqueueContract extends BackendContract {

    @TestHTTPResource("/")
    URL base;

    static ValidatableResponse post(String ndjson) {
        return given().contentType("application/x-ndjson").body(ndjson.getBytes(StandardCharsets.UTF_8))
                .when().post("/items/batch").then();
    }

    static String line(String id, String payload) {
        return "{\"id\":\"" + id + "\",\"payload\":\"" + payload + "\"}\n";
    }

    private String text(String id) throws IOException {
        return new String(spool.payloadIn(ItemState.PENDING, id), StandardCharsets.UTF_8);
    }

    static String lines(String prefix, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            s.append(line(prefix + "-" + i, "payload " + i));
        }
        return s.toString();
    }

    @Test
    void bothPayloadFormsLandInLineOrderWithTheirExactBytes() throws IOException {
        String prefix = SpoolFixture.uniqueId("forms");
        byte[] binary = new byte[256];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i; // every byte value, 0 and the high ones included
        }
        String body = line(prefix + "-text", "h\\u00e9llo \\\"w\\u00f6rld\\\"\\n\\u2603 \\ud83d\\ude00")
                + "{\"payloadBase64\":\"" + Base64.getEncoder().encodeToString(binary) + "\",\"id\":\"" + prefix
                + "-bin\"}\r\n"
                + "\n"
                + "  {\"id\":\"" + prefix + "-empty\",\"payload\":\"\"}";
        post(body).statusCode(201)
                .body("items.id", equalTo(List.of(prefix + "-text", prefix + "-bin", prefix + "-empty")))
                .body("items.state", equalTo(List.of("pending", "pending", "pending")));

        assertEquals("héllo \"wörld\"\n☃ 😀", text(prefix + "-text"));
        assertArrayEquals(binary, spool.payloadIn(ItemState.PENDING, prefix + "-bin"));
        assertEquals(0, spool.payloadIn(ItemState.PENDING, prefix + "-empty").length);
        spool.assertNoStaging(); // each id is known as an item's, and nothing else is
        given().when().get("/items/{id}", prefix + "-bin").then().statusCode(200).body("state", equalTo("pending"));
    }

    @Test
    void idsAreMadeWhenAbsentAndTheItemsDrain() throws IOException {
        List<String> ids = post("{\"payload\":\"one\"}\n{\"payloadBase64\":\"dHdv\"}\n{\"payload\":\"three\"}\n")
                .statusCode(201).extract().path("items.id");
        assertEquals(3, ids.size());
        assertEquals(3, new HashSet<>(ids).size(), "three ids: " + ids);
        List<String> payloads = new ArrayList<>();
        for (String id : ids) {
            assertTrue(ItemId.isValid(id), id);
            payloads.add(text(id));
        }
        assertEquals(List.of("one", "two", "three"), payloads, "in line order");
        spool.assertNoStaging();
        given().queryParam("budget", "10s").when().post("/drain").then().statusCode(200).body("done", equalTo(3));
    }

    static Stream<Arguments> badLines() {
        return Stream.of(
                Arguments.of("{\"id\":\"x-a\",\"payload\":", "not valid JSON"),
                Arguments.of("[1,2]", "not a JSON object"),
                Arguments.of("{\"id\":\"a~b\",\"payload\":\"x\"}", "invalid item id"),
                Arguments.of("{\"id\":\"x-b\",\"payload\":\"x\",\"payloadBase64\":\"eA==\"}", "both \"payload\" and"),
                Arguments.of("{\"id\":\"x-c\"}", "no \"payload\" or \"payloadBase64\""),
                Arguments.of("{\"id\":\"x-d\",\"payloadBase64\":\"@@@=\"}", "\"payloadBase64\" is not base64"),
                Arguments.of("{\"id\":\"x-e\",\"payload\":\"x\",\"extra\":1}", "unknown field \"extra\""),
                Arguments.of("{\"id\":\"x-f\",\"payload\":\"x\"} {\"id\":\"x-g\",\"payload\":\"y\"}",
                        "more than one JSON value"),
                Arguments.of("{\"id\":7,\"payload\":\"x\"}", "\"id\" must be a string"),
                Arguments.of("{\"id\":\"batch\",\"payload\":\"x\"}", "is the name of the call /items/batch"),
                Arguments.of("{\"id\":\"retry\",\"payload\":\"x\"}", "is the name of the call /items/retry"),
                Arguments.of("{\"id\":\"x-h\",\"payload\":\"\\ud800\"}", "surrogate"),
                Arguments.of("{\"id\":\"dup-0\",\"payload\":\"again\"}", "is on line 1 of the batch already"));
    }

    @ParameterizedTest
    @MethodSource("badLines")
    void aBadLineFirstInTheMiddleOrLastRefusesTheWholeBatchNamingItAndWritesNothing(String bad, String why)
            throws IOException {
        for (int at : new int[] {1, 3, 5}) {
            if (at == 1 && why.contains("already")) {
                continue; // a duplicate inside the batch is found on its second line, never on the first
            }
            String prefix = SpoolFixture.uniqueId("bad");
            StringBuilder body = new StringBuilder();
            for (int n = 1; n <= 5; n++) {
                body.append(n == at ? bad.replace("dup-0", prefix + "-1") + "\n" : line(prefix + "-" + n, "fine " + n));
            }
            List<String> before = spool.holdings();
            String error = post(body.toString()).statusCode(400).body("status", equalTo(400)).extract().path("error");
            assertTrue(error.startsWith("line " + at + ": ") && error.contains(why), error);
            assertEquals(before, spool.holdings(), "nothing written for a bad line " + at);
        }
    }

    /**
     * A newcomer's cut line: the error names the batch line and the column, never Jackson's own location (whose
     * "line: 1" contradicted it) or its internals, and shows the shape a line must have.
     */
    @Test
    void aLineThatIsNotJsonIsNamedWithItsColumnAndTheShapeOfALine() throws IOException {
        String prefix = SpoolFixture.uniqueId("cut");
        for (String bad : List.of("{\"id\":\"" + prefix + "-2\",\"payload\":\"oops\"", "hello")) {
            String error = post(line(prefix + "-1", "ok") + bad + "\n").statusCode(400).extract().path("error");
            assertTrue(error.startsWith("line 2: not valid JSON at column ") && error.endsWith(
                    "(each line is one JSON object, e.g. {\"id\":\"order-1\",\"payload\":\"text\"})"), error);
            assertTrue(!error.contains("Source") && !error.contains("line: 1") && !error.contains("StreamReadFeature"),
                    error);
        }
    }

    static Stream<Arguments> rawBadLines() {
        return Stream.of(
                Arguments.of(bytes("\u00e9 x"), "not valid JSON"), // a line led by a non-ASCII character
                Arguments.of(new byte[] {(byte) 0xFF}, "not UTF-8"), // a lone byte that is no UTF-8
                Arguments.of(new byte[] {(byte) 0x80, '{', '}'}, "not UTF-8"), // a stray continuation byte
                Arguments.of(concat(bytes("{\"id\":\"x-u\",\"payload\":\"a"), new byte[] {(byte) 0xC3, '"', '}'}),
                        "not UTF-8")); // a payload cut inside a character
    }

    /** Raw bytes, not text: a byte at or above 0x80 is read as the unsigned value it is, never as an end. */
    @ParameterizedTest
    @MethodSource("rawBadLines")
    void aLineOfBytesThatIsNotUtf8JsonRefusesTheWholeBatchNamingIt(byte[] bad, String why) throws IOException {
        for (int at : new int[] {1, 2, 3}) {
            String prefix = SpoolFixture.uniqueId("raw");
            java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
            for (int n = 1; n <= 3; n++) {
                body.writeBytes(n == at ? concat(bad, new byte[] {'\n'}) : bytes(line(prefix + "-" + n, "fine " + n)));
            }
            List<String> before = spool.holdings();
            String error = given().contentType("application/x-ndjson").body(body.toByteArray()).when()
                    .post("/items/batch").then().statusCode(400).extract().path("error");
            assertTrue(error.startsWith("line " + at + ": ") && error.contains(why), error);
            assertEquals(before, spool.holdings(), "nothing written for a bad line " + at);
        }
    }

    /**
     * Bytes that are no UTF-8 by RFC 3629 but that a lax decoder turns into characters: an overlong form
     * (C0 AF is '/', C0 A2 is '"', C0 AE C0 AE is ".."), and a code point past U+10FFFF. The line is refused
     * 400 naming it and saying the payload is not UTF-8 (send the bytes as payloadBase64); never enqueued
     * with other bytes than were sent, never under an id the client did not write.
     */
    static Stream<Arguments> nonUtf8ThatDecodesToCharacters() {
        return Stream.of(
                Arguments.of(concat(bytes("{\"id\":\"ID\",\"payload\":\"a"), new byte[] {(byte) 0xC0, (byte) 0xAF, 'b', '"', '}'})),
                Arguments.of(concat(bytes("{\"id\":\"ID\",\"payload\":\"a"), new byte[] {(byte) 0xC0, (byte) 0xA2, 'b', '"', '}'})),
                Arguments.of(concat(bytes("{\"id\":\"ID"), concat(new byte[] {(byte) 0xC0, (byte) 0xAE, (byte) 0xC0, (byte) 0xAE},
                        bytes("x\",\"payload\":\"a\"}")))),
                Arguments.of(concat(bytes("{\"id\":\"ID\",\"payload\":\"a"),
                        new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"', '}'})));
    }

    @ParameterizedTest
    @MethodSource("nonUtf8ThatDecodesToCharacters")
    void aLineThatIsNotUtf8IsRefusedAsNotUtf8EvenWhereALaxDecoderReadsCharacters(byte[] bad) throws IOException {
        String prefix = SpoolFixture.uniqueId("lax");
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        body.writeBytes(bytes(line(prefix + "-1", "fine")));
        body.writeBytes(replaceId(bad, prefix + "-2"));
        body.writeBytes(bytes("\n"));
        List<String> before = spool.holdings();
        ValidatableResponse answer = given().contentType("application/x-ndjson").body(body.toByteArray()).when()
                .post("/items/batch").then();
        String error = answer.extract().asString();
        assertEquals(400, answer.extract().statusCode(), error);
        String message = answer.extract().path("error");
        assertTrue(message.startsWith("line 2: ") && message.contains("UTF-8"), message);
        assertTrue(!message.contains("surrogate"), "the bytes are not UTF-8; no surrogate was sent: " + error);
        assertEquals(before, spool.holdings(), "nothing written");
    }

    private static byte[] replaceId(byte[] line, String id) {
        return new String(line, StandardCharsets.ISO_8859_1).replace("ID", id).getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * NDJSON is UTF-8: a line in UTF-16 (as a Windows tool may write it, here without a BOM) is refused 400
     * naming it, not decoded as UTF-16 for a line split at a 0x0A byte of UTF-8.
     */
    @Test
    void aLineInUtf16IsRefusedNotReadAsUtf16() throws IOException {
        List<String> before = spool.holdings();
        byte[] utf16 = "{\"payload\":\"x\"}".getBytes(StandardCharsets.UTF_16LE);
        ValidatableResponse answer = given().contentType("application/x-ndjson").body(concat(utf16, bytes("\n")))
                .when().post("/items/batch").then();
        String body = answer.extract().asString();
        assertEquals(400, answer.extract().statusCode(), body);
        assertTrue(answer.extract().<String>path("error").startsWith("line 1: "), body);
        assertEquals(before, spool.holdings(), "nothing written");
    }

    /**
     * A field name past Jackson's bound (here 2 MiB, within the line's) is a bad line: 400 naming the unknown
     * field, never 413 "payload larger than max-bytes" for a line whose payload is one byte.
     */
    @Test
    void aHugeFieldNameIsABadLineNotAPayloadTooLarge() throws IOException {
        List<String> before = spool.holdings();
        String body = "{\"" + "k".repeat(100_000) + "\":1,\"payload\":\"x\"}\n";
        ValidatableResponse answer = post(body);
        String text = answer.extract().asString();
        assertEquals(400, answer.extract().statusCode(), text.substring(0, Math.min(300, text.length())));
        assertEquals(before, spool.holdings(), "nothing written");
    }

    @Test
    void rawUtf8InAPayloadIsEnqueuedLikeAnyOtherLine() throws IOException {
        String prefix = SpoolFixture.uniqueId("utf8");
        String body = line(prefix + "-1", "plain") + line(prefix + "-2", "\u00e9t\u00e9 \u2603 \ud83d\ude00")
                + "{\"payload\":\"\u00e9\",\"id\":\"" + prefix + "-3\"}\n";
        given().contentType("application/x-ndjson").body(bytes(body)).when().post("/items/batch").then()
                .statusCode(201).body("items.id", equalTo(List.of(prefix + "-1", prefix + "-2", prefix + "-3")));
        assertEquals("\u00e9t\u00e9 \u2603 \ud83d\ude00", text(prefix + "-2"));
        assertEquals("\u00e9", text(prefix + "-3"));
    }

    /** A UTF-8 byte order mark before a line (a Windows tool's habit) is no part of it; CRLF ends a line like LF. */
    @Test
    void aByteOrderMarkBeforeALineIsSkippedAndCrlfEndsALine() throws IOException {
        String prefix = SpoolFixture.uniqueId("bom");
        String body = "\ufeff" + line(prefix + "-1", "\u00e9 one").replace("\n", "\r\n")
                + "\ufeff" + line(prefix + "-2", "two");
        given().contentType("application/x-ndjson").body(bytes(body)).when().post("/items/batch").then()
                .statusCode(201).body("items.id", equalTo(List.of(prefix + "-1", prefix + "-2")));
        assertEquals("\u00e9 one", text(prefix + "-1"));
        assertEquals("two", text(prefix + "-2"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void aKnownIdRefusesTheBatchWith409NamingItsLine() throws IOException {
        String prefix = SpoolFixture.uniqueId("known");
        given().queryParam("id", prefix + "-done").body("first").when().post("/items").then().statusCode(201);
        given().queryParam("budget", "10s").when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        given().queryParam("id", prefix + "-pending").body("waiting").when().post("/items").then().statusCode(201);

        for (String known : List.of(prefix + "-pending", prefix + "-done")) {
            List<String> before = spool.holdings();
            String body = line(prefix + "-new-1", "a") + line(prefix + "-new-2", "b") + line(known, "c")
                    + line(prefix + "-new-3", "d");
            SpoolFixture.assertError(post(body), 409, "line 3: item '" + known + "' already exists");
            assertEquals(before, spool.holdings(), "nothing written, no reservation left");
        }
    }

    /**
     * A known id anywhere in a batch longer than a store keeps in flight (the JetStream spool sends its
     * creates without waiting, 256 at most, and hears of a refusal lines later): the 409 names the known
     * id's own line, and nothing of the batch is left, the lines after it included.
     */
    @ParameterizedTest
    @MethodSource("deepLines")
    void aKnownIdDeepInALongBatchIsNamedByItsOwnLineAndNothingIsLeft(int at) throws IOException {
        String prefix = SpoolFixture.uniqueId("deep");
        String known = prefix + "-known";
        given().queryParam("id", known).body("first").when().post("/items").then().statusCode(201);
        List<String> before = spool.holdings();
        StringBuilder body = new StringBuilder();
        for (int line = 1; line <= 600; line++) {
            body.append(line == at ? line(known, "again") : line(prefix + "-" + line, "payload " + line));
        }
        SpoolFixture.assertError(post(body.toString()), 409, "line " + at + ": item '" + known + "' already exists");
        assertEquals(before, spool.holdings(), "nothing written, no reservation or staging left");
        post(lines(prefix, 600)).statusCode(201); // every other id of it is free
        assertEquals("first", text(known));
    }

    /**
     * Review: a known id is refused with 409 naming its line, as on the directory, also when a line after it
     * is bad. The directory refuses the known id as its line is read; a store that hears of its creates late
     * must not let the later line's 400 hide the earlier 409 (docs/configuration.md, The JetStream spool: the API answers the same on both backends).
     */
    @ParameterizedTest
    @ValueSource(strings = {"{\"id\":\"x-a\",\"payload\":", "{\"id\":\"SAME-1\",\"payload\":\"again\"}"})
    void aKnownIdFollowedByABadLineIsRefusedWith409NamingTheKnownLine(String bad) throws IOException {
        String prefix = SpoolFixture.uniqueId("knownthenbad");
        String known = prefix + "-known";
        given().queryParam("id", known).body("first").when().post("/items").then().statusCode(201);
        List<String> before = spool.holdings();
        String body = line(prefix + "-1", "a") + line(known, "b") + line(prefix + "-3", "c")
                + bad.replace("SAME", prefix) + "\n";
        SpoolFixture.assertError(post(body), 409, "line 2: item '" + known + "' already exists");
        assertEquals(before, spool.holdings(), "nothing written");
    }

    static Stream<Integer> deepLines() {
        return Stream.of(1, 255, 256, 257, 300, 599, 600);
    }

    /**
     * Payloads near the inline limit, more in all than the JetStream spool holds in memory for one batch
     * (1 MiB of base64: past that they are stored as objects): every item lands with its exact bytes, in line order.
     */
    @Test
    void aBatchOfLargePayloadsPastTheInlineBudgetLandsWithExactBytes() throws IOException {
        String prefix = SpoolFixture.uniqueId("large");
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            body.append(line(prefix + "-" + i, large(i)));
        }
        post(body.toString()).statusCode(201).body("items.size()", equalTo(300));
        for (int i = 0; i < 300; i += 37) {
            assertEquals(large(i), text(prefix + "-" + i), "line " + (i + 1));
        }
        assertEquals(large(299), text(prefix + "-299"));
    }

    /** 15,000 bytes, different for every line. */
    private static String large(int i) {
        return ("line " + i + " ").repeat(15_000).substring(0, 15_000);
    }

    /**
     * Two batches sharing one id, sent at the same moment, ten times: the id is one exclusive create, so
     * exactly one batch lands whole and the other is refused whole, leaving no item, reservation or
     * staging of its own, and the shared id holds the winner's payload.
     */
    /** The ids of a batch's lines, in line order. */
    private static List<String> ids(String ndjson) {
        List<String> ids = new ArrayList<>();
        for (String line : ndjson.split("\n")) {
            ids.add(line.substring(line.indexOf("\"id\":\"") + 6, line.indexOf("\",")));
        }
        return ids;
    }

    @Test
    void twoBatchesRacingForOneIdLandOneWholeAndRefuseTheOtherWhole() throws Exception {
        for (int round = 0; round < 10; round++) {
            spool.startClean();
            String prefix = SpoolFixture.uniqueId("race" + round);
            String shared = prefix + "-shared";
            String a = lines(prefix + "-a", 20) + line(shared, "from a") + lines(prefix + "-a2", 20);
            String b = line(shared, "from b") + lines(prefix + "-b", 40);
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                java.util.concurrent.Future<Integer> fa = two.submit(() -> {
                    go.await();
                    return post(a).extract().statusCode();
                });
                java.util.concurrent.Future<Integer> fb = two.submit(() -> {
                    go.await();
                    return post(b).extract().statusCode();
                });
                go.countDown();
                int sa = fa.get(30, java.util.concurrent.TimeUnit.SECONDS);
                int sb = fb.get(30, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(List.of(201, 409), sa == 201 ? List.of(sa, sb) : List.of(sb, sa),
                        "round " + round + ": one batch lands, the other is refused (a " + sa + ", b " + sb + ")");
                String winner = sa == 201 ? "a" : "b";
                for (String id : ids(sa == 201 ? a : b)) {
                    spool.payloadIn(ItemState.PENDING, id); // round's winner: each of its items is pending
                }
                for (String id : ids(sa == 201 ? b : a)) {
                    if (!id.equals(shared)) {
                        given().when().get("/items/{id}", id).then().statusCode(404); // the loser's: none is
                    }
                }
                spool.assertNoStaging(); // and no reservation or staging of the loser's is left
                assertEquals("from " + winner, text(shared), "round " + round);
            } finally {
                two.shutdownNow();
            }
        }
    }

    private boolean reserved(String id) {
        try {
            return spool.isReserved(id);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void anIdReservedByAnUploadStillStreamingRefusesTheBatchAndTheUploadLands() throws IOException {
        String prefix = SpoolFixture.uniqueId("streaming");
        String id = prefix + "-up";
        byte[] first = HeldUpload.bytes(20 * 1024, 'u'); // within every profile's max-bytes, past JetStream's inline
        try (HeldUpload upload = HeldUpload.start(base, "/items?id=" + id, first, 1000)) {
            Await.until("the upload has reserved its id", Duration.ofSeconds(20),
                    () -> reserved(id));
            List<String> before = spool.holdings();
            SpoolFixture.assertError(post(line(prefix + "-a", "a") + "{\"payload\":\"b\",\"id\":\"" + id + "\"}\n"),
                    409, "line 2: item '" + id + "' already exists");
            assertEquals(before, spool.holdings(), "nothing of the batch written");
            RawHttp.Answer answer = upload.finish();
            assertEquals(201, answer.status(), answer.body());
        }
        assertArrayEquals(first, spool.payloadIn(ItemState.PENDING, id));
        given().when().get("/items/{id}", prefix + "-a").then().statusCode(404);
        spool.assertNoStaging();
    }

    /**
     * The client's connection reset mid-body, inside a character of the second line (one good line before it):
     * nothing of the batch stays (no staged payload, no reservation: the ids are free again), and the service
     * answers the next batch.
     */
    @Test
    void aConnectionResetInsideACharacterLeavesNothingAndFreesTheIds() throws Exception {
        String prefix = SpoolFixture.uniqueId("reset");
        List<String> before = spool.holdings();
        byte[] sent = concat(bytes(line(prefix + "-1", "fine") + "{\"id\":\"" + prefix + "-2\",\"payload\":\"a"),
                new byte[] {(byte) 0xE2, (byte) 0x82}); // the first two bytes of the euro sign
        try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
            socket.getOutputStream().write(("POST /items/batch HTTP/1.1\r\nHost: " + base.getHost() + "\r\n"
                    + "Content-Type: application/x-ndjson\r\nContent-Length: " + (sent.length + 100) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(sent);
            socket.getOutputStream().flush();
            Thread.sleep(200); // the service reads what came before the reset
            socket.setSoLinger(true, 0); // close with a reset, not a goodbye
        }
        io.leasehold.testing.Await.until("the cut batch left nothing", java.time.Duration.ofSeconds(20), () -> {
            try {
                spool.assertNoStaging();
                return before.equals(spool.holdings());
            } catch (AssertionError | IOException e) {
                return false;
            }
        });
        given().when().get("/items/{id}", prefix + "-1").then().statusCode(404);
        given().contentType("application/x-ndjson").body(bytes(line(prefix + "-1", "again") + line(prefix + "-2", "€")))
                .when().post("/items/batch").then().statusCode(201);
        assertEquals("\u20ac", text(prefix + "-2"));
    }

    @Test
    void anEmptyBatchIsRefused() throws IOException {
        List<String> before = spool.holdings();
        SpoolFixture.assertError(post(""), 400, "the batch holds no items");
        SpoolFixture.assertError(post("\n  \n\r\n"), 400, "the batch holds no items");
        assertEquals(before, spool.holdings());
    }

    @Test
    void aBodyOfAnotherTypeIsRefused() throws IOException {
        List<String> before = spool.holdings();
        SpoolFixture.assertError(given().contentType("application/json").body(lines("typed", 2)).when()
                .post("/items/batch").then(), 415, "takes Content-Type: application/x-ndjson");
        // curl --data-binary sends application/x-www-form-urlencoded unless told otherwise
        SpoolFixture.assertError(given().contentType("application/x-www-form-urlencoded").body(lines("typed", 2))
                .when().post("/items/batch").then(), 415, "is 'application/x-www-form-urlencoded");
        assertEquals(before, spool.holdings());
    }
}
