package io.leasehold.handler;

import io.leasehold.core.Outcome;
import io.leasehold.testing.LogCapture;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** An exec handler on workers of its own, with what its children's output logs captured. */
abstract class ExecOutputFixture {

    static final Duration WAIT = Duration.ofSeconds(30);
    final ExecutorService workers = Executors.newCachedThreadPool();
    LogCapture log;
    @TempDir
    Path dir;

    @BeforeEach
    void listen() {
        log = LogCapture.of("io.leasehold.exec.output");
    }

    @AfterEach
    void stop() {
        log.close();
        workers.shutdownNow();
    }

    /** One attempt of {@code command} for item {@code id}, empty payload, epoch 41; its outcome. */
    Outcome run(String id, int attempt, String command) {
        WorkItem item = new WorkItem(id, attempt, new byte[0], 41, Instant.EPOCH);
        return new ExecHandler(command, workers).handle(item).await().atMost(WAIT);
    }
}
