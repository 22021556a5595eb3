package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.leasehold.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.openqa.selenium.By;

/**
 * The status page's refresh loop goes on whatever the API does: one read never answered does not stop it,
 * and ten thousand failed items are listed bounded. Against a stub API (the page's own files, served from
 * the classpath beside answers the test chooses).
 */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class StatusPageRefreshLoopTest {

    private HttpServer server;
    private HeadlessChromium chromium;
    private final CountDownLatch never = new CountDownLatch(1);
    private final AtomicInteger spoolReads = new AtomicInteger();
    private final AtomicInteger leaseReads = new AtomicInteger();
    private final List<String> queries = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        never.countDown();
        if (chromium != null) {
            chromium.close();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    private static void send(HttpExchange x, int status, String type, byte[] body) throws IOException {
        x.getResponseHeaders().add("Content-Type", type);
        x.sendResponseHeaders(status, body.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(body);
        }
    }

    private String start(boolean firstLeaseHangs, int failed) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", x -> {
            String path = x.getRequestURI().getPath();
            String file = path.equals("/") ? "index.html" : path.substring(1);
            try (InputStream in = getClass().getResourceAsStream("/META-INF/resources/" + file)) {
                if (in == null) {
                    send(x, 404, "text/plain", new byte[0]);
                    return;
                }
                send(x, 200, file.endsWith(".js") ? "text/javascript" : file.endsWith(".css") ? "text/css"
                        : "text/html", in.readAllBytes());
            }
        });
        server.createContext("/schedules", x -> send(x, 200, "application/json", "[]".getBytes(StandardCharsets.UTF_8)));
        server.createContext("/stats", x -> send(x, 200, "application/json", "{\"windowMinutes\":60,\"minutes\":[]}".getBytes(StandardCharsets.UTF_8)));
        server.createContext("/drain", x -> send(x, 200, "application/json", "{\"paused\":false}".getBytes(StandardCharsets.UTF_8)));
        server.createContext("/spool", x -> {
            spoolReads.incrementAndGet();
            send(x, 200, "application/json", ("{\"pending\":0,\"claimed\":0,\"scheduled\":0,\"retrying\":0,"
                    + "\"done\":0,\"failed\":" + failed + ",\"oldestPendingAgeMs\":0,\"ignored\":[]}")
                    .getBytes(StandardCharsets.UTF_8));
        });
        server.createContext("/lease", x -> {
            if (leaseReads.incrementAndGet() == 1 && firstLeaseHangs) {
                try {
                    never.await(); // a read the service never answers (a blocked worker, a stalled proxy)
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            send(x, 200, "application/json", "{\"mode\":\"no-bus\",\"epoch\":0}".getBytes(StandardCharsets.UTF_8));
        });
        server.createContext("/items", x -> {
            queries.add(x.getRequestURI().getQuery());
            StringBuilder body = new StringBuilder("[");
            if (x.getRequestURI().getQuery().contains("state=failed")) {
                int limit = Integer.parseInt(x.getRequestURI().getQuery().replaceAll(".*limit=(\\d+).*", "$1"));
                for (int i = 0; i < Math.min(limit, failed); i++) {
                    body.append(i == 0 ? "" : ",").append("{\"id\":\"f-").append(i)
                            .append("\",\"state\":\"failed\",\"reason\":\"exit 1\"}");
                }
            }
            send(x, 200, "application/json", body.append("]").toString().getBytes(StandardCharsets.UTF_8));
        });
        server.start();
        chromium = HeadlessChromium.start();
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /**
     * One read that is never answered (fetch has no timeout, and Promise.all waits for all four) stops the
     * refresh loop for good: the page keeps its stale (here: no) figures and never says it cannot read.
     */
    @Test
    void oneUnansweredReadDoesNotStopTheRefreshLoop() throws Exception {
        String url = start(true, 0);
        chromium.driver.get(url);
        // The hung read is given up after 10 s; the loop then goes on reading every 2 s.
        Await.until("the page reads on past the unanswered one", Duration.ofSeconds(45),
                () -> spoolReads.get() >= 3 && leaseReads.get() >= 2);
    }

    /** 10,000 failed items: the page asks for 100 and says it shows the first 100 of 10000. */
    @Test
    void tenThousandFailedItemsAreListedBounded() throws Exception {
        String url = start(false, 10_000);
        chromium.driver.get(url);
        chromium.until("100 failed rows", d -> d.findElements(By.cssSelector("#failed tbody tr")).size() == 100);
        assertEquals("(first 100 of 10000)", chromium.driver.findElement(By.id("failed-shown")).getText());
        assertTrue(queries.stream().filter(q -> q.contains("state=failed")).allMatch(q -> q.contains("limit=100")),
                "every listing bounded: " + queries);
    }
}
