package io.leasehold.nats;

import io.leasehold.config.LeaseholdConfig;
import java.nio.file.Path;
import java.util.Optional;

/** How the service and command mode reach NATS, from the same {@code leasehold.nats.*} keys. */
public final class BusSettings {

    private BusSettings() {
    }

    /** Empty without a URL (no-bus mode); {@code connectionName} names this process to the server. */
    public static Optional<NatsSettings> of(LeaseholdConfig.NatsConfig nats, String connectionName) {
        return nats.url().filter(u -> !u.isBlank()).map(url -> new NatsSettings(url, nats.user(), nats.password(),
                nats.token(), nats.credentials().map(Path::of), nats.tls().truststore().map(Path::of),
                nats.tls().truststorePassword(), nats.tls().keystore().map(Path::of), nats.tls().keystorePassword(),
                nats.connectTimeout(), nats.requestTimeout(), connectionName));
    }
}
