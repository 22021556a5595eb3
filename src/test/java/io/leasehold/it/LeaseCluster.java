package io.leasehold.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.testing.Await;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Packaged instances sharing one spool and one lease bucket on a test's own {@link NatsServer}, with
 * the lease timings of the fencing benchmark (docs/lease.md) (duration 3s, renew-deadline 2s, renew-every 1s). The
 * instances of one cluster share the spool, as real instances do, and so share the epoch floor kept in
 * it. Close it to kill every instance and the server.
 */
final class LeaseCluster implements AutoCloseable {

    static final Duration DURATION = Duration.ofSeconds(3);
    static final Duration RENEW_DEADLINE = Duration.ofSeconds(2);
    static final Duration RENEW_EVERY = Duration.ofSeconds(1);
    /** Several JVMs start at once on two shared cores: generous, and only a limit. */
    static final Duration START = Duration.ofSeconds(90);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PID = Pattern.compile(" pid (\\d+) ");

    /** What GET /lease answered: holder is the holder's instance name, its pid parsed from it. */
    record Lease(String mode, long epoch, String holder, long holderPid, String reason, boolean reset,
            String raw) {

        boolean heldBy(ServiceProcess p) {
            return holderPid == p.pid();
        }
    }

    /** One attempt as the handler script logged it: under which epoch, on which instance. */
    record Act(String id, long epoch, String instance) {
    }

    /**
     * Handler work that logs {@code epoch <id> <LEASEHOLD_EPOCH> <instance> <pid>} (one short append)
     * before {@code more}, so a test can tell under which epoch and where each attempt ran.
     */
    static String work(String more) {
        return "echo \"epoch $LEASEHOLD_ITEM_ID $LEASEHOLD_EPOCH $INSTANCE $$\" >> \"$WORK_LOG\"\n" + more;
    }

    final NatsServer nats;
    final SharedSpool spool;
    final String bucket = "lease-it-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<ServiceProcess> instances = new ArrayList<>();

    LeaseCluster(String name, NatsServer nats, String work) {
        this.nats = nats;
        this.spool = SharedSpool.create(name, work);
    }

    /** An instance with the cluster's settings; {@code extra} adds or overrides keys. Not yet ready. */
    ServiceProcess start(String name, Map<String, String> extra) {
        return start(name, extra, Map.of());
    }

    /** As {@link #start(String, Map)}, {@code env} added to the instance's environment (e.g. a {@code Faketime}). */
    ServiceProcess start(String name, Map<String, String> extra, Map<String, String> env) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("leasehold.nats.url", nats.url());
        config.put("leasehold.lease.bucket", bucket);
        config.put("leasehold.lease.duration", DURATION.toSeconds() + "s");
        config.put("leasehold.lease.renew-deadline", RENEW_DEADLINE.toSeconds() + "s");
        config.put("leasehold.lease.renew-every", RENEW_EVERY.toSeconds() + "s");
        config.putAll(extra);
        Map<String, String> allEnv = new LinkedHashMap<>(spool.env(name));
        allEnv.putAll(env);
        ServiceProcess p = ServiceProcess.start(name, spool.config(config), allEnv);
        instances.add(p);
        return p;
    }

    ServiceProcess start(String name) {
        return start(name, Map.of());
    }

    List<ServiceProcess> instances() {
        return List.copyOf(instances);
    }

    /** GET /lease of one instance, or null when it does not answer (killed, frozen, exited). */
    static Lease lease(ServiceProcess p) {
        if (!p.isAlive()) {
            return null;
        }
        String body;
        try {
            body = p.get("/lease");
        } catch (UncheckedIOException | AssertionError e) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(body);
            String holder = n.path("holder").path("instance").asText(null);
            long pid = -1;
            if (holder != null) {
                Matcher m = PID.matcher(holder);
                pid = m.find() ? Long.parseLong(m.group(1)) : -1;
            }
            return new Lease(n.path("mode").asText(), n.path("epoch").asLong(), holder, pid,
                    n.path("reason").asText(null), n.hasNonNull("reset"), body);
        } catch (IOException e) {
            throw new UncheckedIOException("/lease of " + p + " is not JSON: " + body, e);
        }
    }

    /**
     * Waits until one of {@code among} holds the lease and every other names it (and its epoch) as the
     * holder while waiting; answers the holder.
     */
    static ServiceProcess awaitOneHolder(List<ServiceProcess> among, Duration deadline) {
        ServiceProcess[] holder = new ServiceProcess[1];
        Await.value("exactly one of " + among + " holds the lease and the others wait on it", deadline,
                () -> among.stream().map(LeaseCluster::lease).toList(), seen -> {
                    holder[0] = oneHolder(among, seen);
                    return holder[0] != null;
                });
        return holder[0];
    }

    private static ServiceProcess oneHolder(List<ServiceProcess> among, List<Lease> seen) {
        if (seen.contains(null)) {
            return null;
        }
        List<Integer> held = new ArrayList<>();
        for (int i = 0; i < seen.size(); i++) {
            if (seen.get(i).mode().equals("held")) {
                held.add(i);
            }
        }
        if (held.size() != 1) {
            return null;
        }
        ServiceProcess h = among.get(held.get(0));
        Lease holding = seen.get(held.get(0));
        if (!holding.heldBy(h) || holding.epoch() <= 0) {
            return null;
        }
        for (Lease other : seen) {
            if (other != holding && !(other.mode().equals("waiting") && other.heldBy(h)
                    && other.epoch() == holding.epoch())) {
                return null;
            }
        }
        return h;
    }

    /** Every attempt logged by {@link #work} so far. */
    List<Act> acts() {
        // The work log's line format puts the epoch where start/end lines put the attempt.
        return spool.runs().stream().filter(r -> r.kind().equals("epoch"))
                .map(r -> new Act(r.id(), r.attempt(), r.instance())).toList();
    }

    /** Lines of an instance's log that contain {@code text}. */
    static long linesWith(ServiceProcess p, String text) {
        return p.logText().lines().filter(l -> l.contains(text)).count();
    }

    @Override
    public void close() {
        instances.forEach(ServiceProcess::close);
        spool.killLeftoverAttempts();
        nats.close();
    }
}
