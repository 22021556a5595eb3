package io.leasehold.app;

import io.leasehold.config.ConfigCheck;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.handler.ExecHandler;
import io.leasehold.handler.Handler;
import io.leasehold.handler.LogHandler;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.inject.Singleton;

/** Picks the handler named by {@code leasehold.handler}: a built-in, or a user's {@code @Named} bean. */
public class HandlerSelection {

    @Produces
    @Singleton
    @Selected
    Handler handler(LeaseholdConfig config, @Any Instance<Handler> beans) {
        ConfigCheck.require(config);
        String name = config.handler().name();
        switch (name) {
            case "log":
                return new LogHandler();
            case "exec":
                return new ExecHandler(config.handler().exec().command().orElseThrow(),
                        Infrastructure.getDefaultWorkerPool());
            case "http":
                throw new ConfigCheck.InvalidConfigException(
                        "leasehold.handler=http is not available in this build yet; use log, exec or a handler bean");
            default:
                Instance<Handler> named = beans.select(NamedLiteral.of(name));
                if (named.isUnsatisfied()) {
                    throw new ConfigCheck.InvalidConfigException("leasehold.handler names '" + name
                            + "', which is neither log, exec, http nor a @Named CDI bean implementing Handler");
                }
                return named.get();
        }
    }
}
