package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.SharedSpool.Run;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A poison item whose handler SIGKILLs the instance running it ends in failed/ as "abandoned 3
 * times" after max-attempts=3, and one that always asks for a retry (exit 75) gives up after 3
 * attempts, while other items keep flowing. The test restarts dead instances, as a supervisor would.
 */
class PoisonItemIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** $PPID of the handler's shell is the JVM: setsid does not fork, as the shell is no group leader. */
    private static final String WORK = String.join("\n",
            "case \"$LEASEHOLD_ITEM_ID\" in",
            "  poison) kill -KILL $PPID; exit 1 ;;",
            "  flaky) exit 75 ;;",
            "  *) sleep 0.3 ;;",
            "esac");

    @RegisterExtension
    final Instances instances = new Instances();
    private SharedSpool spool;

    private ServiceProcess start(String name) {
        ServiceProcess process = ServiceProcess.start(name, spool.config(Map.of(
                "leasehold.claim.lease", "3s",
                "leasehold.claim.max-skew", "500ms",
                "leasehold.drain.poll-interval", "1s",
                // One at a time: the poison never takes an innocent item down with it (a co-held item
                // would be abandoned too and could reach max-attempts through no fault of its own).
                "leasehold.drain.concurrency", "1",
                "leasehold.drain.max-attempts", "3",
                "leasehold.drain.backoff-initial", "1s",
                "leasehold.drain.backoff-max", "2s")), spool.env(name));
        instances.add(process);
        return process;
    }

    @Test
    void poisonFailsAfterMaxAttemptsWhileOtherItemsFlow() {
        spool = instances.on(SharedSpool.create("poison", WORK));
        start("p1").awaitReady(Duration.ofSeconds(60));
        start("p2").awaitReady(Duration.ofSeconds(60));
        List<String> normalIds = IntStream.rangeClosed(1, 20).mapToObj(n -> "item-" + n).toList();
        spool.enqueue("poison", "poison");
        spool.enqueue("flaky", "flaky");
        normalIds.forEach(id -> spool.enqueue(id, id));

        // The supervisor: whoever dies is replaced by a fresh instance, so two are always (re)starting.
        List<Integer> deaths = new ArrayList<>();
        Set<ServiceProcess> seenDead = new HashSet<>();
        Await.until("everything settled", Duration.ofMinutes(2), () -> {
            for (ServiceProcess process : List.copyOf(instances.all())) {
                if (!process.isAlive() && seenDead.add(process)) {
                    deaths.add(process.awaitExit(Duration.ofSeconds(1)));
                    assertTrue(deaths.size() <= 3, "only the poison kills instances, 3 times at most");
                    start("p" + (instances.all().size() + 1));
                }
            }
            return spool.names("pending").isEmpty() && spool.names("claimed").isEmpty()
                    && spool.names("failed").size() == 2;
        });

        assertEquals(new TreeSet<>(List.of("flaky", "poison")), spool.names("failed"));
        assertEquals(new TreeSet<>(normalIds), spool.names("done"), "other items kept flowing");
        assertEquals(List.of(137, 137, 137), deaths, "each attempt of the poison SIGKILLed its instance");

        List<Run> poison = spool.runs("start", "poison");
        assertEquals(List.of(1, 2, 3), poison.stream().map(Run::attempt).toList(), "poison: " + poison);
        assertEquals(3, poison.stream().map(Run::instance).distinct().count(), "each attempt killed another JVM");
        List<Run> flaky = spool.runs("start", "flaky");
        assertEquals(List.of(1, 2, 3), flaky.stream().map(Run::attempt).toList(), "flaky: " + flaky);
        for (String id : normalIds) {
            assertEquals(List.of(1), spool.runs("start", id).stream().map(Run::attempt).toList(),
                    id + " ran exactly once");
        }

        ServiceProcess live = instances.all().get(instances.all().size() - 1).awaitReady(Duration.ofSeconds(60));
        JsonNode poisoned = item(live, "poison");
        assertEquals("failed", poisoned.path("state").asText());
        assertEquals("abandoned 3 times", poisoned.path("reason").asText());
        JsonNode gaveUp = item(live, "flaky");
        assertEquals("failed", gaveUp.path("state").asText());
        assertEquals("gave up after 3 attempts; last: exit 75", gaveUp.path("reason").asText());
    }

    private static JsonNode item(ServiceProcess instance, String id) {
        try {
            return JSON.readTree(instance.get("/items/" + id));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
