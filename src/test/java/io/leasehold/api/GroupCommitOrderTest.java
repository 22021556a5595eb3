package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Concurrent single POST /items share syncs of pending/, and none answers 201 before a sync that began
 * after its own link had completed: checked against the recorded syncs ({@link RecordingDirectorySync}).
 */
@QuarkusTest
@TestProfile(BatchLimitsProfile.class)
class GroupCommitOrderTest {

    private static final int CLIENTS = 16;
    private static final int EACH = 50;

    @Inject
    SpoolLayout layout;

    @Inject
    RecordingDirectorySync syncs;

    @TestHTTPResource("/")
    URL base;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
        syncs.clear();
    }

    @Test
    void everyAnswerComesAfterASyncThatBeganAfterItsLinkAndSyncsAreShared() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        Map<String, Long> answeredAt = new ConcurrentHashMap<>();
        String prefix = SpoolFixture.uniqueId("group");
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                done.add(clients.submit(() -> {
                    for (int i = 0; i < EACH; i++) {
                        String id = prefix + "-" + client + "-" + i;
                        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(
                                URI.create(base + "items?id=" + id)).POST(HttpRequest.BodyPublishers.ofString(id))
                                .build(), HttpResponse.BodyHandlers.ofString());
                        long at = RecordingDirectorySync.SEQUENCE.incrementAndGet();
                        assertEquals(201, answer.statusCode(), answer.body());
                        answeredAt.put(id, at);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            clients.shutdownNow();
        }

        assertEquals(CLIENTS * EACH, answeredAt.size());
        List<String> pending = SpoolFixture.names(layout, SpoolFolder.PENDING);
        assertEquals(answeredAt.keySet().stream().sorted().toList(), pending, "every item answered 201 is in pending/");
        SpoolFixture.assertEmpty(layout, SpoolFolder.TMP);
        List<RecordingDirectorySync.Sync> recorded = syncs.pendingSyncs();
        List<String> early = new ArrayList<>();
        for (Map.Entry<String, Long> answer : answeredAt.entrySet()) {
            boolean covered = recorded.stream().anyMatch(s -> s.linkedBefore().contains(answer.getKey())
                    && s.ended() < answer.getValue());
            if (!covered) {
                early.add(answer.getKey());
            }
        }
        assertEquals(List.of(), early, "answered 201 before any sync that began after its link had ended");
        assertTrue(recorded.size() < CLIENTS * EACH, recorded.size() + " syncs for " + CLIENTS * EACH + " items");
        System.out.printf("group commit: %d syncs of pending/ for %d items from %d clients%n", recorded.size(),
                CLIENTS * EACH, CLIENTS);
    }
}
