package io.leasehold.backend;

import io.leasehold.clock.TickingClock;
import io.leasehold.config.ConfigRecords;
import io.leasehold.config.LeaseholdConfig;
import io.leasehold.directory.DirectoryBackend;
import io.leasehold.directory.DirectoryOptions;
import io.leasehold.directory.DirectorySync;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.jetstream.JetStreamBackend;
import io.leasehold.lease.Holders;
import io.leasehold.spool.SpoolBackend;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Builds the spool backend {@code leasehold.spool.kind} names from the configuration: the one place that
 * chooses, used by the service's wiring and by the command line alike, so both move items the same way.
 */
public final class SpoolBackends {

    private SpoolBackends() {
    }

    /**
     * The configured backend for {@code instance} (a claim's holder on JetStream). The configuration was
     * checked when it was read; {@code sync} forces the directory's folders (a test may record the syncs).
     * Throws when the JetStream spool's bus cannot be reached, with a line naming {@code leasehold.nats.url}.
     */
    public static SpoolBackend open(LeaseholdConfig config, TickingClock clock, String instance, DirectorySync sync)
            throws IOException {
        if (jetStream(config)) {
            return JetStreamBackend.open(config, clock, ConfigRecords.leaseTerms(config), instance);
        }
        return new DirectoryBackend(layout(config), clock, ConfigRecords.leaseTerms(config),
                config.item().maxBytes().asLongValue(), Holders.tag(), sync,
                new DirectoryOptions(config.spool().reservationLinks(), config.spool().linuxCalls()));
    }

    /** Whether {@code leasehold.spool.kind} chose the JetStream spool. */
    public static boolean jetStream(LeaseholdConfig config) {
        return config.spool().kind().equals("jetstream");
    }

    /** The directory under {@code leasehold.spool.dir}: the directory spool's, and on either kind the epoch floor's home. */
    public static SpoolLayout layout(LeaseholdConfig config) {
        return new SpoolLayout(Path.of(config.spool().dir()));
    }
}
