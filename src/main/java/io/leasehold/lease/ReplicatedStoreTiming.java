package io.leasehold.lease;

import io.leasehold.core.DurationText;
import java.time.Duration;
import java.util.Optional;

/**
 * A lease or spool stream with more than one replica stops answering while its servers elect a new
 * stream leader: 4-9 s measured on nats-server 2.9 when a leader's server dies. A renew-deadline
 * shorter than that turns every such election into a lost lease (exit 3), so the start says so.
 * A warning, not a refusal: a cluster with faster elections may run shorter deadlines on purpose.
 */
public final class ReplicatedStoreTiming {

    /** The longest re-election measured here, rounded up. */
    public static final Duration ELECTION = Duration.ofSeconds(10);

    private ReplicatedStoreTiming() {
    }

    /** The warning for these settings, if they call for one. */
    public static Optional<String> warning(Duration renewDeadline, int leaseReplicas, int spoolReplicas,
            boolean jetStreamSpool) {
        String key = leaseReplicas > 1 ? "leasehold.lease.replicas (" + leaseReplicas + ")"
                : jetStreamSpool && spoolReplicas > 1 ? "leasehold.spool.jetstream.replicas (" + spoolReplicas + ")"
                : null;
        if (key == null || renewDeadline.compareTo(ELECTION) >= 0) {
            return Optional.empty();
        }
        return Optional.of("leasehold.lease.renew-deadline (" + DurationText.of(renewDeadline) + ") is shorter than "
                + DurationText.of(ELECTION)
                + " with " + key + " > 1: a stream leader election (4-9 s) can then cost the holder its lease; set"
                + " leasehold.lease.renew-deadline to " + ELECTION.toSeconds() + "s or more (and"
                + " leasehold.lease.duration at least 1s above it)");
    }
}
