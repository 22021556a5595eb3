package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault suite, JetStream pickup across a NATS restart: a drainer learns of items another instance
 * enqueues from its standing watch of the ledger (or, at the latest, from its poll every poll-interval,
 * which reads the same picture). A watch is not promised to survive a server restart; were it not made
 * anew on reconnect, the picture would stay stale until housekeeping's next check (a minute) and items
 * would wait that long (or, as jnats' ordered consumer recovers by itself, about 5 s). Here NATS restarts
 * mid-drain, and every item enqueued elsewhere afterwards is picked up within three poll-intervals.
 */
class JetStreamRestartPickupIT {

    /**
     * Three poll-intervals: room for a loaded machine, and below the ~5 s jnats' ordered consumer takes to
     * notice its lost consumer by itself (measured with the rebuild on reconnect switched off: 4.9 s for
     * the first item after the restart, 24-136 ms with it).
     */
    private static final Duration WITHIN_POLL_INTERVALS = Duration.ofSeconds(3);

    @RegisterExtension
    final Instances instances = new Instances();
    @AutoClose
    private final NatsServer nats = NatsServer.start();

    private ServiceProcess start(SharedSpool log, String name, boolean drains) {
        ServiceProcess p = ServiceProcess.start(name, log.config(Map.of(
                "leasehold.spool.kind", "jetstream",
                "leasehold.spool.jetstream.bucket", "pickup",
                "leasehold.nats.url", nats.url(),
                "leasehold.drain.poll-interval", "1s",
                // The lease store is new: the first take waits max-skew and a lease duration (15 s).
                "leasehold.claim.max-skew", "500ms",
                "leasehold.drain.auto", Boolean.toString(drains))), log.env(name));
        instances.add(p);
        return p;
    }

    @Test
    void itemsEnqueuedElsewhereAfterANatsRestartArePickedUpWithinPollIntervalsNotAtTheNextCheck() {
        SharedSpool log = instances.on(SharedSpool.create("js-pickup", "sleep 0.2"));
        ServiceProcess drainer = start(log, "drainer", true);
        ServiceProcess enqueuer = start(log, "enqueuer", false);
        instances.all().forEach(p -> p.awaitReady(Duration.ofSeconds(90)));

        for (int n = 1; n <= 5; n++) {
            Answers.assertEnqueued(enqueuer, "before-" + n, "x");
        }
        Await.until("picked up before the restart, once the first lease was taken", Duration.ofSeconds(60),
                () -> log.runs().stream().filter(r -> r.kind().equals("start")).count() >= 5);

        nats.restart(); // mid-drain: the drainer's watch loses its server
        instances.all().forEach(p -> Await.until(p.name() + " ready again", Duration.ofSeconds(60),
                () -> p.status("/q/health/ready") == 200));
        List<String> waited = new ArrayList<>();
        for (int n = 1; n <= 5; n++) {
            String id = "after-" + n;
            Answers.assertEnqueued(enqueuer, id, "x");
            long enqueued = System.nanoTime();
            Await.until(id + " picked up by the drainer", WITHIN_POLL_INTERVALS,
                    () -> !log.runs("start", id).isEmpty());
            waited.add(id + " " + (System.nanoTime() - enqueued) / 1_000_000 + " ms");
        }
        assertEquals(List.of("drainer"), log.runs().stream().filter(r -> r.kind().equals("start"))
                .map(SharedSpool.Run::instance).distinct().toList(), "only the drainer drains");
        System.out.printf("JetStreamRestartPickupIT: after a NATS restart, items enqueued by the other instance were"
                + " picked up in %s (poll-interval 1 s; a stale picture would wait for the next check, a minute)%n",
                waited);
    }
}
