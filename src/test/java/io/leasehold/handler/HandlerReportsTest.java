package io.leasehold.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.HandlerOutput;
import io.leasehold.core.Outcome;
import io.leasehold.testing.Await;
import io.leasehold.testing.HttpReceiver;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the built-in handlers report as an attempt's output: real shells, a real receiver. */
class HandlerReportsTest extends ExecOutputFixture {

    static HttpReceiver receiver;
    static Vertx vertx;
    static WebClient client;

    @BeforeAll
    static void startReceiver() throws Exception {
        receiver = HttpReceiver.start();
        vertx = Vertx.vertx();
        client = WebClient.create(vertx);
    }

    @AfterAll
    static void stopReceiver() throws Exception {
        client.close();
        vertx.closeAndAwait();
        receiver.close();
    }

    private final List<HandlerOutput> reports = new CopyOnWriteArrayList<>();

    private WorkItem item(String id) {
        return new WorkItem(id, 1, new byte[] {'p'}, 41, Instant.EPOCH, reports::add);
    }

    private Outcome exec(String command) {
        return new ExecHandler(command, workers).handle(item("exec-1")).await().atMost(WAIT);
    }

    private Outcome post(String id) {
        HttpHandler http = new HttpHandler(client, new HttpHandler.Target(receiver.url("/events"), "/test", "t",
                "application/octet-stream"));
        return http.handle(item(id)).await().atMost(WAIT);
    }

    private static String text(HandlerOutput output, String part) {
        return output.parts().stream().filter(p -> p.name().equals(part)).findFirst().orElseThrow().text();
    }

    @Test
    void anExecAttemptReportsItsExitStatusAndTheTailsOfStdoutAndStderr() {
        exec("echo 'to stdout'; echo 'to stderr' >&2; exit 3");
        assertEquals(1, reports.size(), "reported once, before its outcome");
        HandlerOutput shown = reports.get(0);
        assertEquals(3, shown.status());
        assertEquals("to stdout\n", text(shown, "stdout"));
        assertEquals("to stderr\n", text(shown, "stderr"));
    }

    @Test
    void aLongStreamIsReportedByItsLastFourKiBAndItsLength() {
        exec("i=0; while [ $i -lt 2000 ]; do echo \"line $i\"; i=$((i+1)); done; echo last");
        HandlerOutput.Part stdout = reports.get(0).parts().get(0);
        assertEquals(HandlerOutput.MAX_PART_BYTES, stdout.text().length());
        assertTrue(stdout.text().endsWith("line 1999\nlast\n"), stdout.text());
        assertTrue(stdout.bytes() > 15_000, "the stream's whole length: " + stdout.bytes());
    }

    @Test
    void aSilentSuccessReportsNothing() {
        assertEquals(Outcome.done(), exec("true"));
        assertEquals(List.of(), reports);
    }

    /** A timed-out or lost attempt: what it showed until it was stopped is why it hung. */
    @Test
    void aStoppedCommandReportsWhatItShowedWithoutAStatus() throws Exception {
        Path started = dir.resolve("started");
        Cancellable attempt = new ExecHandler("echo 'waiting for the database'; touch " + started + "; sleep 60", workers)
                .handle(item("stopped-1")).subscribe().with(o -> { }, e -> { });
        Await.until("started", WAIT, () -> Files.exists(started));
        Await.until("the line read", WAIT, () -> log.lines().stream().anyMatch(l -> l.contains("waiting for")));
        attempt.cancel();
        Await.until("a report", WAIT, () -> !reports.isEmpty());
        assertNull(reports.get(0).status());
        assertEquals("waiting for the database\n", text(reports.get(0), "stdout"));
    }

    @Test
    void anHttpRefusalReportsItsStatusAndTheStartOfItsBody() {
        post("s500-long");
        HandlerOutput shown = reports.get(0);
        assertEquals(500, shown.status());
        HandlerOutput.Part body = shown.parts().get(0);
        assertEquals("body", body.name());
        assertEquals("start", body.kept());
        assertTrue(body.text().startsWith("answer 500 for s500-long xxx"), body.text());
        assertEquals(HandlerOutput.MAX_PART_BYTES, body.text().length());
        assertEquals("answer 500 for s500-long ".length() + 20_000, body.bytes());
    }

    @Test
    void anHttpSuccessWithoutABodyReportsNothingAndOneWithABodyReportsIt() {
        assertEquals(Outcome.done(), post("plain-1"));
        assertEquals(List.of(), reports);
        assertEquals(Outcome.done(), post("s201-created"));
        assertEquals(201, reports.get(0).status());
        assertEquals("answer 201 for s201-created", text(reports.get(0), "body"));
    }
}
