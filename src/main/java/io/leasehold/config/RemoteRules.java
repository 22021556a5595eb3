package io.leasehold.config;

import io.leasehold.core.DurationText;
import java.net.URI;
import java.time.Duration;
import java.net.URISyntaxException;
import java.util.Optional;

/** The rules of the settings that reach other systems: NATS, its lease and JetStream buckets, the http handler. */
final class RemoteRules {

    /** JetStream keeps at most five copies of a stream. */
    static final int MAX_REPLICAS = 5;
    private static final String BUCKET = "[A-Za-z0-9_-]+";

    private RemoteRules() {
    }

    static void lease(Problems problems, LeaseholdConfig.LeaseConfig lease) {
        problems.built(() -> ConfigRecords.leaseTiming(lease))
                .ifPresent(timing -> ConfigCheck.tickable(problems, "leasehold.lease.renew-every", timing.renewEvery()));
        replicas(problems, "leasehold.lease.replicas", lease.replicas());
        bucket(problems, "leasehold.lease.bucket", lease.bucket());
        if (!lease.key().matches("[-/_=.A-Za-z0-9]+") || lease.key().startsWith(".") || lease.key().endsWith(".")) {
            problems.add("leasehold.lease.key", "must be a NATS KV key ([-/_=.A-Za-z0-9]+, no leading or trailing"
                    + " '.'), got '" + lease.key() + "'");
        }
    }

    static void nats(Problems problems, LeaseholdConfig c) {
        problems.positive("leasehold.nats.connect-timeout", c.nats().connectTimeout());
        problems.positive("leasehold.nats.request-timeout", c.nats().requestTimeout());
        Duration duration = c.lease().duration();
        // Against a duration that breaks its own rule this says nothing more: that rule is the one to read.
        if (!duration.isNegative() && !duration.isZero() && c.nats().requestTimeout().compareTo(duration) >= 0) {
            // NATS reports a permission refusal only when its request times out: a candidate waits at most
            // a lease duration for an answer, so a longer timeout would hide the refusal (no unleased mode).
            problems.add("leasehold.nats.request-timeout", "(" + DurationText.of(c.nats().requestTimeout())
                    + ") must be shorter than leasehold.lease.duration (" + DurationText.of(duration) + ")");
        }
        if (c.nats().user().isPresent() != c.nats().password().isPresent()) {
            problems.add("leasehold.nats.password", "and leasehold.nats.user go together");
        }
    }

    /** The JetStream spool's own keys, checked only when it is chosen. */
    static void jetStreamSpool(Problems problems, LeaseholdConfig c) {
        if (c.nats().url().filter(u -> !u.isBlank()).isEmpty()) {
            problems.add("leasehold.spool.kind", "jetstream needs leasehold.nats.url (or NATS_URL)");
        }
        bucket(problems, "leasehold.spool.jetstream.bucket", c.spool().jetstream().bucket());
        replicas(problems, "leasehold.spool.jetstream.replicas", c.spool().jetstream().replicas());
    }

    static void http(Problems problems, LeaseholdConfig.HttpConfig http) {
        Optional<String> url = http.url().filter(s -> !s.isBlank());
        if (url.isEmpty()) {
            problems.add("leasehold.handler.http.url", "is required when leasehold.handler=http (or set K_SINK)");
        } else if (!isHttpUrl(url.get())) {
            // Never its user:password part: the line goes to logs and terminals.
            problems.add("leasehold.handler.http.url", "must be an absolute http:// or https:// URL with a host, got '"
                    + url.get().replaceAll("(?<=//)[^/@]*@", "***@") + "'");
        }
        problems.notBlankWhenSet("leasehold.handler.http.source", http.source());
        problems.notBlank("leasehold.handler.http.type", http.type());
        problems.notBlank("leasehold.handler.http.content-type", http.contentType());
    }

    private static boolean isHttpUrl(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme();
            return uri.getHost() != null && ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme));
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static void bucket(Problems problems, String key, String bucket) {
        if (!bucket.matches(BUCKET)) {
            problems.add(key, "must match " + BUCKET + ", got '" + bucket + "'");
        }
    }

    private static void replicas(Problems problems, String key, int replicas) {
        if (replicas < 1 || replicas > MAX_REPLICAS) {
            problems.add(key, "must be between 1 and " + MAX_REPLICAS + ", got " + replicas);
        }
    }
}
