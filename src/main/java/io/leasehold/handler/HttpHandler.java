package io.leasehold.handler;

import io.leasehold.core.HandlerOutput;
import io.leasehold.core.Outcome;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.HttpRequest;
import io.vertx.mutiny.ext.web.client.HttpResponse;
import io.vertx.mutiny.ext.web.client.WebClient;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * POSTs each attempt's payload as a binary-mode CloudEvent (docs/handlers.md). 2xx is done; 409 means the
 * receiver refused the epoch as stale, which counts an attempt and is retried with backoff (failed
 * after max-attempts as "refused as stale N times"); 429, 5xx, timeouts, refused connections and
 * resets are retried; any other answer fails the item with the status and the start of the response body.
 *
 * <p>{@code ce-id} is the item id, the same on every attempt: CloudEvents identifies an event by
 * source and id and treats a repeat as a redelivery, which is exactly what a retry is, so a receiver
 * can de-duplicate on it. {@code Leasehold-Attempt} tells attempts apart. Epoch and attempt also go as the
 * extension attributes {@code ce-leaseholdepoch} and {@code ce-leaseholdattempt}, and {@code ce-time} is
 * the fire time of a schedule's item ({@link WorkItem#fireTime}), otherwise when the attempt began (RFC 3339, UTC).
 *
 * <p>Cancelling the returned Uni (claim lost, timeout, shutdown) resets the request, which closes its
 * connection: the receiver sees the attempt end instead of finishing work nobody waits for.
 */
public final class HttpHandler implements Handler {

    /** How much of a refusing answer's body goes into the item's reason. */
    static final int BODY_START_CHARS = 300;

    /**
     * Where and how to POST.
     *
     * @param source the CloudEvent {@code ce-source}
     * @param type the CloudEvent {@code ce-type}
     * @param contentType the payload's {@code Content-Type}
     */
    public record Target(String url, String source, String type, String contentType) {
    }

    private final WebClient client;
    private final Target target;

    /** Adds an interceptor to the client (see {@link InFlight}); requests of other users pass through it. */
    public HttpHandler(WebClient client, Target target) {
        this.client = client;
        this.target = target;
        InFlight.watch(client);
    }

    @Override
    public Uni<Outcome> handle(WorkItem item) {
        return Uni.createFrom().deferred(() -> {
            String epoch = Long.toString(item.epoch());
            String attempt = Integer.toString(item.attempt());
            HttpRequest<Buffer> request = client.postAbs(target.url())
                    .followRedirects(false)
                    .putHeader("ce-specversion", "1.0")
                    .putHeader("ce-id", item.id())
                    .putHeader("ce-source", target.source())
                    .putHeader("ce-type", target.type())
                    .putHeader("Content-Type", target.contentType())
                    .putHeader("ce-time", item.fireTime().orElse(item.startedAt()).toString())
                    .putHeader("Leasehold-Epoch", epoch)
                    .putHeader("Leasehold-Attempt", attempt)
                    // Knative brokers and channels forward ce-* attributes and drop other headers: the
                    // fencing token must reach a receiver behind one too.
                    .putHeader("ce-leaseholdepoch", epoch)
                    .putHeader("ce-leaseholdattempt", attempt);
            // Keyed by the request object itself: the interceptor sees that very object.
            InFlight flight = InFlight.track(request.getDelegate());
            return request.sendBuffer(Buffer.buffer(item.payload()))
                    .map(response -> outcome(item, response))
                    .onFailure().recoverWithItem(HttpHandler::failure)
                    .onCancellation().invoke(flight::cancel)
                    .onTermination().invoke((outcome, failure, cancelled) -> {
                        if (!cancelled) {
                            // A cancelled request stays known until the interceptor has seen it end.
                            InFlight.forget(request.getDelegate());
                        }
                    });
        });
    }

    static Outcome outcome(WorkItem item, HttpResponse<Buffer> response) {
        int status = response.statusCode();
        report(item, status, response.body());
        if (status >= 200 && status < 300) {
            return Outcome.done();
        }
        String reason = "HTTP " + status + bodyStart(response.body());
        if (status == 409) {
            return Outcome.stale("receiver refused epoch " + item.epoch() + " as stale (" + reason + ")");
        }
        if (status == 429 || (status >= 500 && status < 600)) {
            return Outcome.retry(reason);
        }
        // Other 4xx are failed (docs/handlers.md); a redirect or an odd status will not go away by retrying either.
        return Outcome.failed(reason);
    }

    /** The answer's status and the start of its body, as the attempt's output; a bodiless 2xx shows nothing more. */
    private static void report(WorkItem item, int status, Buffer body) {
        int length = body == null ? 0 : body.length();
        if (length > 0 || status < 200 || status >= 300) {
            byte[] first = length == 0 ? new byte[0] : body.getBytes(0, Math.min(length, HandlerOutput.MAX_PART_BYTES + 4));
            item.report(new HandlerOutput(status, List.of(HandlerOutput.Part.start("body", first, length))));
        }
    }

    static Outcome failure(Throwable e) {
        if (e instanceof ConnectException) {
            return Outcome.retry("connection refused: " + e.getMessage());
        }
        return Outcome.retry("POST failed: " + e);
    }

    private static String bodyStart(Buffer body) {
        if (body == null || body.length() == 0) {
            return "";
        }
        byte[] bytes = body.getBytes(0, Math.min(body.length(), BODY_START_CHARS * 4));
        String text = new String(bytes, StandardCharsets.UTF_8).strip().replaceAll("\\s+", " ");
        if (text.length() > BODY_START_CHARS) {
            text = text.substring(0, BODY_START_CHARS) + "…";
        }
        return text.isEmpty() ? "" : ": " + text;
    }
}
