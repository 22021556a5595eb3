package io.leasehold.it;

import static io.leasehold.it.ItemsCommandIT.DEADLINE;
import static io.leasehold.it.ItemsCommandIT.JSON;
import static io.leasehold.it.ItemsCommandIT.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.leasehold.testing.Await;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The command line and a running packaged service on one spool: items the command enqueues are drained
 * by the service to done, the command shows them exactly as the API does ({@code --json} is the API's
 * shape), and purges them one by one and in bulk while the service runs.
 */
class ItemsCommandServiceIT {

    @Test
    void itemsEnqueuedByTheCommandAreDrainedByTheServiceAndShownAsTheApiShowsThem() throws IOException {
        Path work = Files.createDirectories(Path.of("target", "it-work", "items-service-" + System.nanoTime()))
                .toAbsolutePath();
        Map<String, String> config = Map.of("leasehold.spool.dir", work.resolve("spool").toString());
        Path payload = Files.writeString(work.resolve("payload.txt"), "drain me");
        try (ServiceProcess service = ServiceProcess.start("items-service", config, Map.of())) {
            service.awaitReady(Duration.ofSeconds(60));
            for (String id : new String[] {"svc1", "svc2"}) {
                ok(LeaseCommandProcess.runWords(work, "enqueue", config, payload, DEADLINE, "items", "enqueue",
                        "--json", "--id", id));
            }
            for (String id : new String[] {"svc1", "svc2"}) {
                Await.until(id + " drained to done by the service", Duration.ofSeconds(60),
                        () -> service.status("/items/" + id) == 200
                                && tree(service.get("/items/" + id)).get("state").asText().equals("done"));
            }
            JsonNode byApi = tree(service.get("/items/svc1"));
            JsonNode byCommand = ok(LeaseCommandProcess.runWords(work, "show", config, null, DEADLINE, "items", "show",
                    "svc1", "--json"));
            assertEquals(byApi, byCommand, "the command's JSON is the API's");
            assertEquals(2, ok(LeaseCommandProcess.runWords(work, "status", config, null, DEADLINE, "spool", "status",
                    "--json")).get("done").asLong());

            assertEquals(1, ok(LeaseCommandProcess.runWords(work, "purge", config, null, DEADLINE, "items", "purge",
                    "svc1", "--json")).get("purged").asLong());
            assertEquals(404, service.status("/items/svc1"));
            assertEquals(1, ok(LeaseCommandProcess.runWords(work, "purge", config, null, DEADLINE, "items", "purge",
                    "--state", "done", "--json")).get("purged").asLong());
            assertEquals(404, service.status("/items/svc2"));
        }
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(json, e);
        }
    }
}
