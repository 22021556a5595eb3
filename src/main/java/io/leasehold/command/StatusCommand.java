package io.leasehold.command;

import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseStoreException;
import io.leasehold.nats.NatsBus;
import io.leasehold.nats.NatsConnector;
import io.leasehold.nats.NatsKvLeaseStore;
import io.leasehold.nats.NatsSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * {@code lease status}: one JSON line on stdout — {@code "state":"held"} with the holder, its epoch
 * and when it last renewed (by its own clock), {@code "state":"free"} when nobody holds the lease (with
 * {@code "vacancy":"released"} or {@code "reset"} when the key says why), or {@code "state":"no-bus"}
 * without a NATS URL. Exit 0; 1 when the bus cannot be reached or read.
 */
final class StatusCommand {

    private static final Logger LOG = Logger.getLogger(StatusCommand.class);

    private StatusCommand() {
    }

    static int run(CommandConfig config, PrintStream out) {
        Optional<NatsSettings> nats = config.nats("leasehold-status pid " + ProcessHandle.current().pid());
        Map<String, Object> said = new LinkedHashMap<>();
        if (nats.isEmpty()) {
            said.put("state", "no-bus");
            said.put("epoch", 0);
            said.put("reason", "no leasehold.nats.url (or NATS_URL) is set");
            out.println(json(said));
            return 0;
        }
        String bucket = config.lease().bucket();
        String key = config.lease().key();
        Optional<LeaseStore.Versioned> seen;
        try (NatsBus bus = NatsConnector.connect(nats.get())) {
            seen = new NatsKvLeaseStore(bus, bucket, key, config.lease().replicas()).read();
        } catch (IOException e) {
            LOG.errorf("NATS at %s cannot be reached: %s", nats.get().safeUrls(), e.getMessage());
            return 1;
        } catch (LeaseStoreException e) {
            LOG.errorf("the lease at %s/%s cannot be read: %s", bucket, key, e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
        boolean held = seen.isPresent() && !seen.get().record().vacant();
        said.put("state", held ? "held" : "free");
        said.put("bucket", bucket);
        said.put("key", key);
        seen.filter(lease -> held).ifPresent(lease -> {
            said.put("holder", lease.record().holder());
            said.put("epoch", lease.epoch());
            said.put("revision", lease.revision());
            said.put("takenAt", lease.record().takenAt());
            said.put("renewedAt", lease.record().renewedAt());
        });
        seen.filter(lease -> !held).ifPresent(vacancy -> {
            // Given back (may be taken at once), or marked after a store reset (taken a full duration later).
            said.put("vacancy", vacancy.record().vacancy().name().toLowerCase(Locale.ROOT));
            said.put("by", vacancy.record().holder());
            said.put("revision", vacancy.revision());
            said.put("at", vacancy.record().renewedAt());
        });
        out.println(json(said));
        return 0;
    }

    private static String json(Map<String, Object> said) {
        return CommandJson.write(said);
    }
}
