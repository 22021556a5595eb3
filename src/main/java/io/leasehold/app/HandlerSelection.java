package io.leasehold.app;

import io.leasehold.config.ConfigCheck;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.handler.ExecHandler;
import io.leasehold.handler.Handler;
import io.leasehold.handler.HttpHandler;
import io.leasehold.handler.LogHandler;
import io.leasehold.handler.ProcessWatchdog;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;

/** Picks the handler named by {@code leasehold.handler}: a built-in, or a user's {@code @Named} bean. */
public class HandlerSelection {

    @Produces
    @Singleton
    @Selected
    Handler handler(LeaseholdConfig config, @Any Instance<Handler> beans, Instance<Vertx> vertx) {
        ConfigCheck.requireAtStart(config);
        String name = config.handler().name();
        switch (name) {
            case "log":
                return new LogHandler();
            case "exec":
                return new ExecHandler(config.handler().exec().command().orElseThrow(),
                        Infrastructure.getDefaultWorkerPool(), watchdog());
            case "http":
                return http(config, vertx.get());
            default:
                Instance<Handler> named = beans.select(NamedLiteral.of(name));
                if (named.isUnsatisfied()) {
                    // Only the beans know their names, so this rule waits for the boot (one line all the same).
                    throw new ConfigCheck.InvalidConfigException("leasehold.handler names '" + name
                            + "', which is neither log, exec, http nor a @Named CDI bean implementing Handler")
                            .atStart();
                }
                return named.get();
        }
    }

    /** Started with the service, so the children of a JVM that dies die with it (see ProcessWatchdog). */
    private static ProcessWatchdog watchdog() {
        try {
            return ProcessWatchdog.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the exec handler's watchdog (/bin/sh, setsid): "
                    + e.getMessage(), e);
        }
    }

    /** After the drain stopped (its children ended by the usual rules), the watchdog is told to exit too. */
    void close(@Disposes @Selected Handler handler) throws Exception {
        if (handler instanceof ExecHandler exec) {
            exec.close();
        }
    }

    /** On Quarkus' own Vert.x, so requests run on its event loops and end with it. */
    private static HttpHandler http(LeaseholdConfig config, Vertx vertx) {
        LeaseholdConfig.HttpConfig http = config.handler().http();
        WebClient client = WebClient.create(vertx, new WebClientOptions()
                .setUserAgent("leasehold").setFollowRedirects(false));
        String source = http.source().orElseGet(() -> defaultSource(config.spool().dir()));
        return new HttpHandler(client, new HttpHandler.Target(http.url().orElseThrow().strip(), source,
                http.type(), http.contentType()));
    }

    /** The spool, not the instance, is the event's origin: every instance draining it sends the same. */
    static String defaultSource(String spoolDir) {
        String path = Path.of(spoolDir).toAbsolutePath().normalize().toString();
        try {
            return new URI(null, null, "/leasehold" + (path.startsWith("/") ? "" : "/") + path, null)
                    .toASCIIString();
        } catch (URISyntaxException e) {
            return "/leasehold";
        }
    }
}
