package io.leasehold.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Outcome;
import io.leasehold.testing.Await;
import io.smallrye.mutiny.subscription.Cancellable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exec handler against real shells and processes. */
class ExecHandlerTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    final ExecutorService workers = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    Outcome run(String command, WorkItem item) {
        return new ExecHandler(command, workers).handle(item).await().atMost(WAIT);
    }

    static WorkItem item(String payload) {
        return new WorkItem("item-1", 2, payload.getBytes(StandardCharsets.UTF_8), 41, Instant.EPOCH);
    }

    @Test
    void givesThePayloadOnStdinAndTheItemInTheEnvironment() throws IOException {
        Path out = dir.resolve("out");
        Outcome outcome = run("{ cat; echo \" $LEASEHOLD_ITEM_ID $LEASEHOLD_ATTEMPT $LEASEHOLD_EPOCH\"; } > " + out,
                item("hello"));
        assertInstanceOf(Outcome.Done.class, outcome);
        assertEquals("hello item-1 2 41\n", Files.readString(out));
    }

    @Test
    void exit75IsARetryWithTheTailOfStderr() {
        Outcome outcome = run("echo 'database is busy' >&2; exit 75", item(""));
        assertEquals(new Outcome.Retry("exit 75: database is busy"), outcome);
    }

    @Test
    void anyOtherExitIsAFailureWithTheTailOfStderr() {
        String longNoise = "x".repeat(5000);
        Outcome outcome = run("echo " + longNoise + " >&2; echo 'the real cause' >&2; exit 3", item(""));
        Outcome.Failed failed = assertInstanceOf(Outcome.Failed.class, outcome);
        assertTrue(failed.reason().startsWith("exit 3: "), failed.reason());
        assertTrue(failed.reason().endsWith("the real cause"), failed.reason());
        assertTrue(failed.reason().length() < 2100, "only the tail is kept: " + failed.reason().length());
    }

    @Test
    void aLargePayloadThatIsNeverReadDoesNotBlock() {
        String big = "y".repeat(1_000_000);
        assertInstanceOf(Outcome.Done.class, run("true", item(big)));
    }

    @Test
    void cancellingKillsTheWholeProcessGroup() throws IOException {
        Path pids = dir.resolve("pids");
        // The shell starts a grandchild that would outlive a kill of the shell alone.
        String command = "sleep 300 & echo $! > " + pids + ".tmp; echo $$ >> " + pids + ".tmp; mv " + pids + ".tmp "
                + pids + "; wait";
        Cancellable running = new ExecHandler(command, workers).handle(item("")).subscribe().with(o -> { });
        Await.until("both processes started", WAIT, () -> Files.exists(pids));
        long[] started = Files.readAllLines(pids).stream().mapToLong(Long::parseLong).toArray();
        assertEquals(2, started.length);
        for (long pid : started) {
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "alive before: " + pid);
        }

        running.cancel();

        for (long pid : started) {
            Await.until("process " + pid + " is gone", WAIT,
                    () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
        }
    }

    @Test
    void anUnknownCommandFailsWithTheShellsWords() {
        Outcome.Failed failed = assertInstanceOf(Outcome.Failed.class, run("no-such-command-here", item("")));
        assertTrue(failed.reason().startsWith("exit 127: "), failed.reason());
        assertTrue(failed.reason().contains("not found"), failed.reason());
    }

    /** Records registrations, and can refuse them, as a watchdog that cannot be reached would. */
    static final class RecordingGroups implements ChildGroups {
        final List<String> seen = new CopyOnWriteArrayList<>();
        volatile Path mustNotExistYet;
        volatile boolean refuse;

        @Override
        public void register(long pgid) throws IOException {
            seen.add("+" + pgid);
            if (mustNotExistYet != null && Files.exists(mustNotExistYet)) {
                throw new AssertionError("the command ran before its group was registered");
            }
            if (refuse) {
                throw new IOException("the watchdog is gone");
            }
        }

        @Override
        public void deregister(long pgid) {
            seen.add("-" + pgid);
        }
    }

    @Test
    void theGroupIsRegisteredBeforeTheCommandRunsAndDeregisteredWhenItExits() throws IOException {
        RecordingGroups groups = new RecordingGroups();
        Path ran = dir.resolve("ran");
        groups.mustNotExistYet = ran;
        Outcome outcome = new ExecHandler("cat > " + ran, workers, groups).handle(item("in")).await().atMost(WAIT);
        assertInstanceOf(Outcome.Done.class, outcome);
        assertEquals("in", Files.readString(ran), "the payload still arrives on stdin");
        assertEquals(2, groups.seen.size(), groups.seen.toString());
        assertEquals(groups.seen.get(0).substring(1), groups.seen.get(1).substring(1), "the same group");
        assertTrue(groups.seen.get(0).startsWith("+") && groups.seen.get(1).startsWith("-"), groups.seen.toString());
    }

    @Test
    void aCommandWhoseGroupCannotBeRegisteredNeverRuns() throws IOException {
        RecordingGroups groups = new RecordingGroups();
        groups.refuse = true;
        Path ran = dir.resolve("ran");
        Outcome outcome = new ExecHandler("touch " + ran, workers, groups).handle(item("")).await().atMost(WAIT);
        Outcome.Retry retry = assertInstanceOf(Outcome.Retry.class, outcome);
        assertEquals("could not start the command: the watchdog is gone", retry.reason());
        long pid = Long.parseLong(groups.seen.get(0).substring(1));
        Await.until("the waiting wrapper is gone", WAIT, () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
        assertTrue(!Files.exists(ran), "it never ran");
    }
}
