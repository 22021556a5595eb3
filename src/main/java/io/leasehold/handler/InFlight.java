package io.leasehold.handler;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.impl.ClientPhase;
import io.vertx.ext.web.client.impl.HttpContext;
import io.vertx.ext.web.client.impl.WebClientInternal;
import io.vertx.mutiny.ext.web.client.WebClient;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One POST on its way, so that cancelling its Uni can stop it. The Mutiny web client only drops the
 * answer of a cancelled Uni and lets the request run on; an interceptor hands over the underlying
 * request when it is sent, and a reset of that request closes its connection.
 */
final class InFlight {

    private volatile boolean cancelled;
    private volatile HttpClientRequest request;
    private volatile Context context;

    /** Cancels now when the request is out, or as soon as it would go out. */
    void cancel() {
        cancelled = true;
        // Read after the flag: either this sees the request, or the interceptor sees the flag.
        HttpClientRequest sent = request;
        if (sent != null) {
            Context on = context;
            if (on == null) {
                sent.reset();
            } else {
                on.runOnContext(v -> sent.reset());
            }
        }
    }

    /** Every request of an attempt still running, by the request object the interceptor sees. */
    private static final Map<HttpRequest<?>, InFlight> ALL = new ConcurrentHashMap<>();

    static InFlight track(HttpRequest<?> request) {
        InFlight flight = new InFlight();
        ALL.put(request, flight);
        return flight;
    }

    static void forget(HttpRequest<?> request) {
        ALL.remove(request);
    }

    /** Installs the interceptor once per client (the client refuses a second of the same class). */
    static void watch(WebClient client) {
        try {
            ((WebClientInternal) client.getDelegate()).addInterceptor(new Interceptor());
        } catch (IllegalStateException alreadyThere) {
            // Another handler on the same client installed it; one serves all.
        }
    }

    /** Tells each tracked request's flight about its underlying request; other requests pass untouched. */
    private static final class Interceptor implements io.vertx.core.Handler<HttpContext<?>> {
        @Override
        public void handle(HttpContext<?> ctx) {
            InFlight flight = ALL.get(ctx.request());
            if (flight != null) {
                if (ctx.phase() == ClientPhase.SEND_REQUEST) {
                    flight.context = Vertx.currentContext();
                    flight.request = ctx.clientRequest();
                    if (flight.cancelled) {
                        // Fails the exchange and resets the request; the failure phase goes on from here.
                        ctx.fail(new CancellationException("the attempt was cancelled"));
                        return;
                    }
                } else if (ctx.phase() == ClientPhase.DISPATCH_RESPONSE || ctx.phase() == ClientPhase.FAILURE) {
                    ALL.remove(ctx.request());
                }
            }
            ctx.next();
        }
    }
}
