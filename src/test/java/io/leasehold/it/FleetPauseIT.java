package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The drain's pause, across real processes (docs/operations.md, "Pausing the drain"): asked of one instance, obeyed
 * by the other, by a restarted one, while an attempt under way finishes and settles; nothing starts until the
 * resume, asked of another instance, and then every item runs once. On a spool directory and on JetStream.
 */
class FleetPauseIT {

    private static final Pattern SINCE = Pattern.compile("\"since\":\"([^\"]+)\"");

    @RegisterExtension
    final Instances instances = new Instances();
    private NatsServer nats;
    private SharedSpool log;

    @AfterEach
    void stop() {
        if (log != null) {
            log.killLeftoverAttempts();
        }
        if (nats != null) {
            nats.close();
        }
    }

    @Test
    void onASpoolDirectoryEveryInstanceAndARestartObeyThePauseUntilTheResume() {
        pausedFleet(Map.of());
    }

    @Test
    void onJetStreamEveryInstanceAndARestartObeyThePauseUntilTheResume() {
        nats = NatsServer.start();
        pausedFleet(Map.of("leasehold.spool.kind", "jetstream", "leasehold.spool.jetstream.bucket", "paused",
                "leasehold.nats.url", nats.url()));
    }

    private ServiceProcess start(String name, Map<String, String> backend) {
        Map<String, String> config = new HashMap<>(backend);
        config.putAll(Map.of("leasehold.drain.poll-interval", "1s", "leasehold.drain.concurrency", "2",
                "leasehold.claim.lease", "6s"));
        ServiceProcess process = ServiceProcess.start(name, log.config(config), log.env(name));
        instances.add(process);
        return process.awaitReady(Duration.ofSeconds(60));
    }

    private static String post(ServiceProcess on, String path) {
        var answer = on.request(path, b -> b.POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, answer.statusCode(), answer.body());
        return answer.body();
    }

    private static String since(String body) {
        Matcher m = SINCE.matcher(body);
        assertTrue(m.find(), body);
        return m.group(1);
    }

    private long starts() {
        return log.runs().stream().filter(r -> r.kind().equals("start")).count();
    }

    private void pausedFleet(Map<String, String> backend) {
        log = instances.on(SharedSpool.create("fleet-pause", SharedSpool.AWAIT_GATE));
        ServiceProcess one = start("i1", backend);
        ServiceProcess two = start("i2", backend);
        assertEquals(201, one.enqueue("a-held-1", "under way").statusCode());
        Await.until("a-held-1 at work", Duration.ofSeconds(30), () -> !log.runs("start", "a-held-1").isEmpty());

        String paused = post(one, "/drain/pause");
        assertTrue(paused.contains("\"paused\":true"), paused);
        Await.until("i2 learns of the pause", Duration.ofSeconds(10), () -> two.get("/drain").contains("\"paused\":true"));
        long startsAtPause = starts();
        List<String> ids = IntStream.rangeClosed(1, 6).mapToObj(n -> "item-" + n).toList();
        ids.forEach(id -> assertEquals(201, two.enqueue(id, "payload of " + id).statusCode()));

        log.openGate("a"); // the attempt under way finishes and settles while paused
        Await.until("a-held-1 done while paused", Duration.ofSeconds(30), () -> one.get("/items/a-held-1").contains("\"state\":\"done\""));

        two.terminate();
        assertEquals(0, two.awaitExit(Duration.ofSeconds(30)), "a clean stop");
        ServiceProcess again = start("i2b", backend); // its first scan reads the pause first
        assertEquals(since(paused), since(again.get("/drain")), "the restarted instance obeys the same pause");
        assertEquals(1.0, again.metric("leasehold_drain_paused", ""));
        String ready = again.get("/q/health/ready");
        assertTrue(ready.replaceAll("\\s", "").contains("\"paused\":true"), ready);
        assertEquals(startsAtPause, starts(), "nothing started while paused: " + log.runs());
        ids.forEach(id -> assertTrue(again.get("/items/" + id).contains("\"state\":\"pending\""), id));

        long startsAtResume = starts();
        assertTrue(post(again, "/drain/resume").contains("\"paused\":false"));
        Await.until("every item done after the resume", Duration.ofSeconds(60),
                () -> ids.stream().allMatch(id -> one.get("/items/" + id).contains("\"state\":\"done\"")));
        assertEquals(startsAtResume + ids.size(), starts(), "each item started once, after the resume: " + log.runs());
        assertEquals(Map.of(), log.notRunOnce(ids));
    }
}
