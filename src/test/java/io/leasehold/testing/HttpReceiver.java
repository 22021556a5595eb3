package io.leasehold.testing;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real HTTP receiver for the http handler, on a Vert.x server of its own on a free local port. It
 * answers by the event's {@code ce-id}:
 * <ul>
 *   <li>{@code sNNN-...}: status NNN, body "answer NNN for ID" (and 20,000 x when the id ends in -long);</li>
 *   <li>{@code slow-...}: never answers, and notes when the connection of that request closes;</li>
 *   <li>{@code reset-...}: closes the connection instead of answering;</li>
 *   <li>{@code fenced-...}: refuses stale epochs: remembers the highest {@code Leasehold-Epoch} it
 *       accepted and answers 409 below it, 200 otherwise;</li>
 *   <li>anything else: 200.</li>
 * </ul>
 */
public final class HttpReceiver implements AutoCloseable {

    /** One request as it arrived: headers, the exact body bytes, and when ({@link System#nanoTime()}). */
    public record Received(String method, String path, MultiMap headers, byte[] body, long atNanos) {
        public String header(String name) {
            return headers.get(name);
        }
    }

    private static final Pattern STATUS = Pattern.compile("s(\\d{3})-.*");
    private static final Duration START = Duration.ofSeconds(20);

    private final Vertx vertx;
    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final Set<String> closedWhileHeld = ConcurrentHashMap.newKeySet();
    private long highestEpoch = -1;

    private HttpReceiver(Vertx vertx) throws Exception {
        this.vertx = vertx;
        this.server = vertx.createHttpServer().requestHandler(this::handle)
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture()
                .get(START.toMillis(), TimeUnit.MILLISECONDS);
    }

    public static HttpReceiver start() throws Exception {
        return new HttpReceiver(Vertx.vertx());
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.actualPort() + path;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public Optional<Received> last(String id) {
        Received found = null;
        for (Received r : received) {
            if (id.equals(r.header("ce-id"))) {
                found = r;
            }
        }
        return Optional.ofNullable(found);
    }

    public List<Received> all(String id) {
        return received.stream().filter(r -> id.equals(r.header("ce-id"))).toList();
    }

    /** Whether a {@code slow-} request has arrived whole and is waiting for its answer. */
    public boolean holds(String id) {
        return held.contains(id);
    }

    /** Whether the connection of a held {@code slow-} request was closed by the sender. */
    public boolean closedWhileHeld(String id) {
        return closedWhileHeld.contains(id);
    }

    /** As if an instance with this epoch had been served: lower epochs are refused from now on. */
    public synchronized void sawEpoch(long epoch) {
        highestEpoch = Math.max(highestEpoch, epoch);
    }

    /** Forgets every epoch seen, as a receiver restarted without memory would. */
    public synchronized void forgetEpochs() {
        highestEpoch = -1;
    }

    public synchronized long highestEpoch() {
        return highestEpoch;
    }

    private void handle(HttpServerRequest request) {
        String id = request.getHeader("ce-id");
        if (id != null && id.startsWith("slow-")) {
            // Registered before the body is read, so no close can slip past unseen.
            request.connection().closeHandler(v -> closedWhileHeld.add(id));
        }
        long at = System.nanoTime();
        request.body().onSuccess(body -> {
            received.add(new Received(request.method().name(), request.path(),
                    MultiMap.caseInsensitiveMultiMap().addAll(request.headers()), body.getBytes(), at));
            answer(request, id);
        });
    }

    private void answer(HttpServerRequest request, String id) {
        if (id == null) {
            request.response().setStatusCode(400).end("no ce-id");
            return;
        }
        if (id.startsWith("slow-")) {
            held.add(id);
            return;
        }
        if (id.startsWith("reset-")) {
            request.connection().close();
            return;
        }
        if (id.startsWith("fenced-")) {
            long epoch = Long.parseLong(request.getHeader("Leasehold-Epoch"));
            String refusal = admit(epoch);
            if (refusal != null) {
                request.response().setStatusCode(409).end(refusal);
            } else {
                request.response().setStatusCode(200).end();
            }
            return;
        }
        Matcher status = STATUS.matcher(id);
        if (status.matches()) {
            int code = Integer.parseInt(status.group(1));
            // An id ending in -long gets a long body, as a receiver's error page might be.
            String body = "answer " + code + " for " + id + (id.endsWith("-long") ? " " + "x".repeat(20_000) : "");
            request.response().setStatusCode(code).end(body);
            return;
        }
        request.response().setStatusCode(200).end();
    }

    private synchronized String admit(long epoch) {
        if (epoch < highestEpoch) {
            return "epoch " + epoch + " is below " + highestEpoch;
        }
        highestEpoch = epoch;
        return null;
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(START.toMillis(), TimeUnit.MILLISECONDS);
    }
}
