package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GET /spool of the packaged service, on the system clock: its own enqueues show at once; files other
 * programs drop in or remove, and items another instance claims and settles (plain renames here), show
 * within leasehold.spool.recount-every, exactly, and so do the gauges.
 */
class SpoolCountsIT {

    /** Far past one recount (1s here): a deadline, not a wait. */
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @RegisterExtension
    final Instances instances = new Instances();

    @Test
    void ownMovesShowAtOnceAndOthersWithinTheRecountInterval() throws IOException {
        SharedSpool spool = SharedSpool.create("counts", "true");
        ServiceProcess service = ServiceProcess.start("i1", spool.config(Map.of(
                "leasehold.drain.auto", "false",
                "leasehold.spool.recount-every", "1s")), spool.env("i1"));
        instances.add(service);
        service.awaitReady(Duration.ofSeconds(90));
        Path root = spool.spoolDir();

        for (String id : List.of("own-1", "own-2", "own-3")) {
            assertEquals(201, service.enqueue(id, "o").statusCode());
        }
        assertEquals(List.of(3L, 0L, 0L, 0L), counts(service), "own enqueues, at once");

        for (int i = 0; i < 40; i++) {
            spool.enqueue("dropped-" + i, "d");
        }
        Files.delete(root.resolve("pending").resolve("own-3"));
        // Another instance claims one item and settles another one.
        Files.move(root.resolve("pending").resolve("own-1"),
                root.resolve("claimed").resolve("own-1~1-elsewhere~20261130T150000.000Z"));
        Files.move(root.resolve("pending").resolve("dropped-0"), root.resolve("done").resolve("dropped-0"));
        Files.move(root.resolve("pending").resolve("dropped-1"), root.resolve("failed").resolve("dropped-1"));

        List<Long> expected = List.of(39L, 1L, 1L, 1L);
        Await.value("GET /spool after a recount", DEADLINE, () -> counts(service), expected::equals);
        Await.value("leasehold_items after a recount", DEADLINE,
                () -> List.of("pending", "claimed", "done", "failed").stream()
                        .map(s -> (long) service.metric("leasehold_items", "state=\"" + s + "\"")).toList(),
                expected::equals);
    }

    private static List<Long> counts(ServiceProcess service) {
        JsonNode counts = Answers.parse(service.get("/spool"));
        return List.of("pending", "claimed", "done", "failed").stream().map(f -> counts.path(f).asLong()).toList();
    }
}
