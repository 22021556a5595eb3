package io.leasehold.handler;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.impl.ClientPhase;
import io.vertx.ext.web.client.impl.WebClientInternal;
import io.vertx.mutiny.ext.web.client.WebClient;
import java.util.Map;
import java.util.concurrent.CancellationException;

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

    /** Installs the interceptor that tells each known request's flight about its underlying request. */
    static void watch(WebClient client, Map<HttpRequest<?>, InFlight> inFlight) {
        ((WebClientInternal) client.getDelegate()).addInterceptor(ctx -> {
            InFlight flight = inFlight.get(ctx.request());
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
                    inFlight.remove(ctx.request());
                }
            }
            ctx.next();
        });
    }
}
