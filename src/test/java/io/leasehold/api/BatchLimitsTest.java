package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.spool.SpoolFolder;
import io.leasehold.spool.SpoolLayout;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** 413 for batches over leasehold.item.max-batch lines, payloads over max-bytes and lines no item could need. */
@QuarkusTest
@TestProfile(BatchLimitsProfile.class)
class BatchLimitsTest {

    @Inject
    SpoolLayout layout;

    @Inject
    RecordingDirectorySync syncs;

    @TestHTTPResource("/")
    URL base;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    private static String lines(String prefix, int n, int bigAt, String big) {
        StringBuilder s = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            s.append(i == bigAt ? big : BatchEnqueueTest.line(prefix + "-" + i, "p" + i)).append(i == bigAt ? "\n" : "");
        }
        return s.toString();
    }

    @Test
    void maxBatchLinesAreOneSyncOfPendingAndOneMoreIs413() {
        String prefix = SpoolFixture.uniqueId("most");
        syncs.clear();
        BatchEnqueueTest.post(lines(prefix, BatchLimitsProfile.MAX_BATCH, 0, "")).statusCode(201);
        assertEquals(BatchLimitsProfile.MAX_BATCH, SpoolFixture.names(layout, SpoolFolder.PENDING).size());
        assertEquals(1, syncs.pendingSyncs().size(), "one sync of pending/ for the whole batch");
        assertTrue(syncs.pendingSyncs().get(0).linkedBefore().containsAll(SpoolFixture.names(layout,
                SpoolFolder.PENDING)), "and it began after every link");

        List<String> before = SpoolFixture.census(layout);
        SpoolFixture.assertError(BatchEnqueueTest.post(lines(SpoolFixture.uniqueId("over"),
                BatchLimitsProfile.MAX_BATCH + 1, 0, "")), 413, "line 6: the batch has more than 5 lines"
                + " (leasehold.item.max-batch)");
        assertEquals(before, SpoolFixture.census(layout), "nothing written");
    }

    @Test
    void aPayloadOverMaxBytesIs413NamingItsLineInEitherForm() {
        String text = "x".repeat(BatchLimitsProfile.MAX_BYTES + 1);
        String bytes = Base64.getEncoder().encodeToString(new byte[BatchLimitsProfile.MAX_BYTES + 1]);
        String multiByte = "\u00e9".repeat(BatchLimitsProfile.MAX_BYTES / 2 + 1); // 1026 bytes in 514 characters
        for (String big : List.of("{\"id\":\"big-t\",\"payload\":\"" + text + "\"}",
                "{\"payloadBase64\":\"" + bytes + "\"}", "{\"payload\":\"" + multiByte + "\",\"id\":\"big-m\"}")) {
            List<String> before = SpoolFixture.census(layout);
            SpoolFixture.assertError(BatchEnqueueTest.post(lines(SpoolFixture.uniqueId("big"), 4, 3, big)), 413,
                    "line 3: payload larger than 1024 bytes (leasehold.item.max-bytes)");
            assertEquals(before, SpoolFixture.census(layout), "nothing written");
        }
        String exact = Base64.getEncoder().encodeToString(new byte[BatchLimitsProfile.MAX_BYTES]);
        BatchEnqueueTest.post("{\"payloadBase64\":\"" + exact + "\"}\n").statusCode(201);
    }

    @Test
    void aLineLongerThanAnyItemCouldNeedIs413BeforeItIsRead() throws IOException {
        long longest = 6L * BatchLimitsProfile.MAX_BYTES + 1024;
        // Blanks between the fields: no string grows, only the line.
        byte[] line = ("{\"id\":\"long\"," + " ".repeat(64 * 1024) + "\"payload\":\"x\"}\n").getBytes(StandardCharsets.UTF_8);
        byte[] body = (BatchEnqueueTest.line("first", "x") + new String(line, StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8);
        List<String> before = SpoolFixture.census(layout);
        RawHttp.Answer answer = RawHttp.postChunked(base, "/items/batch", body, 4096, "application/x-ndjson");
        assertEquals(413, answer.status(), answer.body());
        assertTrue(answer.body().contains("line 2 is longer than " + longest + " bytes"), answer.body());
        assertEquals(before, SpoolFixture.census(layout), "nothing written");
    }
}
