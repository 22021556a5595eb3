package io.leasehold.nats;

import io.leasehold.config.Mapped;
import java.util.Map;

/** Settings for a test's own bus: only the URLs given, everything else at the mapping's defaults. */
public final class DefaultBus {

    private DefaultBus() {
    }

    /** As the service would connect with {@code leasehold.nats.url=urls} and nothing else set. */
    public static NatsSettings settings(String urls) {
        return BusSettings.of(Mapped.of(Map.of("leasehold.nats.url", urls)).nats(), "leasehold").orElseThrow();
    }
}
