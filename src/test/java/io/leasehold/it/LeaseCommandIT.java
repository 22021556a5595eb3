package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.testing.Await;
import io.leasehold.testing.FreePorts;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.LeaseCommandProcess.Finished;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Command mode of the packaged jar without a bus: {@code lease exec} runs CMD under epoch 0 and answers
 * its exit status, passes signals on, runs no shell unless asked; {@code lease status} says no-bus;
 * wrong command lines and settings are refused with the right status.
 */
class LeaseCommandIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Finished lease(String... words) {
        return LeaseCommandProcess.run("lease", Map.of(), Map.of(), DEADLINE, words);
    }

    @Test
    void execWithoutABusRunsUnderEpochZeroAndAnswersTheCommandsStatus() {
        Finished run = lease("exec", "--", "sh", "-c", "echo \"epoch=$LEASEHOLD_EPOCH\"; exit 7");
        assertEquals(7, run.status(), run.stderr());
        assertEquals("epoch=0\n", run.stdout(), "CMD's stdout is the command's own, log lines go to stderr");
        assertTrue(run.stderr().contains("no-bus mode, CMD acts under epoch 0"), run.stderr());
    }

    @Test
    void aCommandEndedBySignalAnswers128PlusTheSignal() {
        assertEquals(128 + 9, lease("exec", "--", "sh", "-c", "kill -KILL $$").status());
    }

    @Test
    void withoutShellTheWordsReachTheCommandAsTheyAre() {
        Finished run = lease("exec", "--", "echo", "$LEASEHOLD_EPOCH", "&&", "exit", "4");
        assertEquals(0, run.status(), run.stderr());
        assertEquals("$LEASEHOLD_EPOCH && exit 4\n", run.stdout());
    }

    /**
     * Words that look like the runtime's own options ({@code -D}, {@code -X}, {@code -XX:}) belong to CMD.
     * A JVM stops reading its options at {@code -jar}; a native binary parses runtime options out of its
     * arguments, so this is where the native build would lose them.
     */
    @Test
    void wordsThatLookLikeRuntimeOptionsReachTheCommand() {
        Finished run = lease("exec", "--", "echo", "-Dleasehold.spool.dir=/x", "-Xmx1g", "-XX:+UseSerialGC", "-X");
        assertEquals(0, run.status(), run.stderr());
        assertEquals("-Dleasehold.spool.dir=/x -Xmx1g -XX:+UseSerialGC -X\n", run.stdout());
    }

    @Test
    void withShellTheWordsAreOneLineForBinSh() {
        Finished run = lease("exec", "--shell", "--", "echo \"e=$LEASEHOLD_EPOCH\"", "&&", "exit", "4");
        assertEquals(4, run.status(), run.stderr());
        assertEquals("e=0\n", run.stdout());
    }

    @Test
    void aCommandThatDoesNotExistAnswers127() {
        Finished run = lease("exec", "--", "/nonexistent/leasehold-test-command");
        assertEquals(127, run.status(), run.stderr());
    }

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT", "HUP"})
    void signalsToExecReachTheCommandWhichItWaitsFor(String signal) throws IOException {
        Path work = Files.createDirectories(Path.of("target", "it-work", "signal-" + System.nanoTime()))
                .toAbsolutePath();
        String script = "trap 'echo trapped " + signal + "; touch \"$W/trapped\"' " + signal + "; echo ready; "
                + "i=0; while [ ! -e \"$W/go\" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; exit 42";
        try (LeaseCommandProcess exec = LeaseCommandProcess.start("signal-" + signal, Map.of(),
                Map.of("W", work.toString()), "exec", "--", "sh", "-c", script)) {
            Await.until("CMD is ready", DEADLINE, () -> exec.stdout().contains("ready"));
            exec.signal(signal);
            Await.until("CMD's trap saw SIG" + signal, DEADLINE, () -> Files.exists(work.resolve("trapped")));
            assertTrue(exec.isAlive(), "lease exec waits for CMD, which still runs:\n" + exec.stderr());
            Files.createFile(work.resolve("go"));
            assertEquals(42, exec.awaitExit(DEADLINE), exec.stderr());
            assertEquals("ready\ntrapped " + signal + "\n", exec.stdout());
            assertTrue(exec.stderr().contains("passing SIG" + signal + " on to CMD"), exec.stderr());
        }
    }

    @Test
    void statusWithoutABusSaysNoBus() throws IOException {
        Finished run = lease("status");
        assertEquals(0, run.status(), run.stderr());
        JsonNode said = JSON.readTree(run.stdout());
        assertEquals("no-bus", said.get("state").asText());
        assertEquals(0, said.get("epoch").asLong());
    }

    @Test
    void anUnreachableBusIsStatusOneAndNoCommandRuns() throws IOException {
        String url = "nats://127.0.0.1:" + FreePorts.take();
        Finished status = LeaseCommandProcess.run("status", Map.of(), Map.of("NATS_URL", url), DEADLINE, "status");
        assertEquals(1, status.status(), status.stderr());
        assertTrue(status.stderr().contains("cannot be reached"), status.stderr());
        Finished exec = LeaseCommandProcess.run("exec", Map.of("leasehold.nats.url", url), Map.of(), DEADLINE,
                "exec", "--", "sh", "-c", "echo ran; exit 9");
        assertEquals(1, exec.status(), exec.stderr());
        assertEquals("", exec.stdout(), "CMD never started");
        assertTrue(exec.stderr().contains("CMD not started"), exec.stderr());
    }

    @Test
    void wrongCommandLinesAreStatusTwoAndBadSettingsStatusOneNamingTheKey() {
        Finished usage = lease("exec");
        assertEquals(2, usage.status());
        assertTrue(usage.stderr().contains("usage:"), usage.stderr());
        Finished bad = LeaseCommandProcess.run("bad", Map.of(), Map.of("LEASEHOLD_LEASE_RENEW_DEADLINE", "1m"),
                DEADLINE, "exec", "--", "true");
        assertEquals(1, bad.status(), bad.stderr());
        assertTrue(bad.stderr().contains("leasehold.lease.duration"), bad.stderr());
        Finished help = lease("--help");
        assertEquals(0, help.status());
        assertTrue(help.stdout().contains("lease exec [--shell] -- CMD"), help.stdout());
    }
}
