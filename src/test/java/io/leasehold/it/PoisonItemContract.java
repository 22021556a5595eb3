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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A poison item whose handler SIGKILLs the instance running it ends in failed as "abandoned 3 times"
 * after max-attempts=3, and one that always asks for a retry (exit 75) gives up after 3 attempts, while
 * other items keep flowing. The test restarts dead instances, as a supervisor would. One suite for every
 * backend: a backend's test supplies its settings, a way to enqueue and a look at the ids in one state.
 */
abstract class PoisonItemContract {

    static final ObjectMapper JSON = new ObjectMapper();
    /** $PPID of the handler's shell is the JVM: setsid does not fork, as the shell is no group leader. */
    private static final String WORK = String.join("\n",
            "case \"$LEASEHOLD_ITEM_ID\" in",
            "  poison) kill -KILL $PPID; exit 1 ;;",
            "  flaky) exit 75 ;;",
            "  *) sleep 0.3 ;;",
            "esac");

    @RegisterExtension
    final Instances instances = new Instances();
    protected SharedSpool spool;
    private int drainers;

    /** Settings of this backend, on top of the test's own. */
    protected abstract Map<String, String> backend();

    /** Puts an item in the spool, the way this backend is fed from outside. */
    protected abstract void enqueue(String id, String payload);

    /** The ids in one state: pending, claimed, done or failed. */
    protected abstract Set<String> ids(String state);

    @BeforeEach
    void createSpool() {
        spool = instances.on(SharedSpool.create("poison-" + getClass().getSimpleName(), WORK));
    }

    /** Starts an instance on the spool, without waiting for it; {@code overrides} win. */
    protected ServiceProcess start(String name, Map<String, String> overrides) {
        Map<String, String> config = new LinkedHashMap<>(Map.of(
                "leasehold.claim.lease", "3s",
                "leasehold.claim.max-skew", "500ms",
                "leasehold.drain.poll-interval", "1s",
                // One at a time: the poison never takes an innocent item down with it (a co-held item
                // would be abandoned too and could reach max-attempts through no fault of its own).
                "leasehold.drain.concurrency", "1",
                "leasehold.drain.max-attempts", "3",
                "leasehold.drain.backoff-initial", "1s",
                "leasehold.drain.backoff-max", "2s"));
        config.putAll(backend());
        config.putAll(overrides);
        return instances.add(ServiceProcess.start(name, spool.config(config), spool.env(name)));
    }

    private ServiceProcess startDrainer() {
        return start("p" + ++drainers, Map.of());
    }

    @Test
    void poisonFailsAfterMaxAttemptsWhileOtherItemsFlow() {
        startDrainer().awaitReady(Duration.ofSeconds(60));
        startDrainer().awaitReady(Duration.ofSeconds(60));
        List<String> normalIds = IntStream.rangeClosed(1, 20).mapToObj(n -> "item-" + n).toList();
        enqueue("poison", "poison");
        enqueue("flaky", "flaky");
        normalIds.forEach(id -> enqueue(id, id));

        // The supervisor: whoever dies is replaced by a fresh instance, so two are always (re)starting.
        List<Integer> deaths = new ArrayList<>();
        Set<ServiceProcess> seenDead = new HashSet<>();
        Await.until("everything settled", Duration.ofMinutes(2), () -> {
            for (ServiceProcess process : List.copyOf(instances.all())) {
                if (!process.isAlive() && seenDead.add(process)) {
                    deaths.add(process.awaitExit(Duration.ofSeconds(1)));
                    assertTrue(deaths.size() <= 3, "only the poison kills instances, 3 times at most");
                    startDrainer();
                }
            }
            // failed first: it fills last and stays (no item here is retried), so most looks take one listing.
            return ids("failed").size() == 2 && ids("pending").isEmpty() && ids("claimed").isEmpty();
        });

        assertEquals(new TreeSet<>(List.of("flaky", "poison")), ids("failed"));
        assertEquals(new TreeSet<>(normalIds), ids("done"), "other items kept flowing");
        assertEquals(List.of(137, 137, 137), deaths, "each attempt of the poison SIGKILLed its instance");

        List<Run> poison = spool.runs("start", "poison");
        assertEquals(List.of(1, 2, 3), poison.stream().map(Run::attempt).toList(), "poison: " + poison);
        assertEquals(3, poison.stream().map(Run::instance).distinct().count(), "each attempt killed another JVM");
        List<Run> flaky = spool.runs("start", "flaky");
        assertEquals(List.of(1, 2, 3), flaky.stream().map(Run::attempt).toList(), "flaky: " + flaky);
        // One start and one end, of attempt 1: an innocent item was never taken over nor run again.
        assertEquals(Map.of(), spool.notRunOnce(normalIds), "innocent items ran exactly once");
        for (String id : normalIds) {
            assertEquals(1, spool.runs("start", id).get(0).attempt(), id + " ran as attempt 1");
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
