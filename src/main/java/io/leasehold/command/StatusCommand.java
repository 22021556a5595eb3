package io.leasehold.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.leasehold.lease.LeaseRecord;
import io.leasehold.lease.LeaseStore;
import io.leasehold.lease.LeaseStoreException;
import io.leasehold.nats.NatsBus;
import io.leasehold.nats.NatsConnector;
import io.leasehold.nats.NatsKvLeaseStore;
import io.leasehold.nats.NatsSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * {@code lease status}: one JSON line on stdout — {@code "state":"held"} with the holder, its epoch
 * and when it last renewed (by its own clock), {@code "state":"free"} when nobody holds the lease, or
 * {@code "state":"no-bus"} without a NATS URL. Exit 0; 1 when the bus cannot be reached or read.
 */
final class StatusCommand {

    private static final Logger LOG = Logger.getLogger(StatusCommand.class);
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

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
        LeaseRecord.Vacancy vacancy = seen.map(lease -> lease.record().vacancy()).orElse(null);
        said.put("state", seen.isEmpty() || vacancy == LeaseRecord.Vacancy.RELEASED ? "free"
                : vacancy == LeaseRecord.Vacancy.RESET ? "reset" : "held");
        said.put("bucket", bucket);
        said.put("key", key);
        if (vacancy != null) {
            // Released: taken at once by the next candidate. Reset: taken only after a full duration unchanged.
            said.put("revision", seen.get().revision());
            said.put("since", seen.get().record().renewedAt());
            out.println(json(said));
            return 0;
        }
        seen.ifPresent(lease -> {
            said.put("holder", lease.record().holder());
            said.put("epoch", lease.epoch());
            said.put("revision", lease.revision());
            said.put("takenAt", lease.record().takenAt());
            said.put("renewedAt", lease.record().renewedAt());
        });
        out.println(json(said));
        return 0;
    }

    private static String json(Map<String, Object> said) {
        try {
            return JSON.writeValueAsString(said);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + said, e);
        }
    }
}
