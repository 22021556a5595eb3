package io.leasehold.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Outcome;
import io.leasehold.testing.Await;
import io.leasehold.testing.LogCapture;
import io.smallrye.mutiny.subscription.Cancellable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * An exec handler's output at its edges: a grandchild outliving its attempt holds no thread or pipe of the
 * service, a line cut never splits a UTF-8 character, control bytes never reach the log raw, the tail is whole.
 */
class ExecOutputEdgesTest extends ExecOutputFixture {

    private Outcome run(String id, String command) {
        return run(id, 1, command);
    }

    private static List<Thread> readersOf(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("leasehold-exec-") && t.getName().contains(prefix) && t.isAlive())
                .toList();
    }

    private static long pipesOpen() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith("pipe:");
                } catch (IOException e) {
                    return false;
                }
            }).count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }


    /**
     * A command that leaves a background process behind (a daemon started without redirecting its output):
     * the attempt is settled, yet per attempt two reader threads, the JDK's process-reaper thread (blocked in
     * ProcessPipeInputStream.processExited behind the reader's synchronized read) and two pipe descriptors stay
     * with the service for as long as the grandchild lives. Before 832f3c2 (stdout inherited, stderr a file)
     * nothing of the JVM's was held.
     */
    @Test
    void aGrandchildOutlivingItsAttemptHoldsNoThreadsOrPipesOfTheService() throws Exception {
        long pipesBefore = pipesOpen();
        List<Path> pids = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                Path pid = dir.resolve("pid" + i);
                pids.add(pid);
                assertEquals(Outcome.done(), run("daemon-" + i, "sleep 60 </dev/null & echo $! > " + pid + "; exit 0"));
            }
            Await.until("the attempts' readers and pipes let go", WAIT,
                    () -> readersOf("daemon-").isEmpty() && pipesOpen() - pipesBefore < 5);
            for (Path pid : pids) {
                long leftover = Long.parseLong(Files.readString(pid).trim());
                Await.until("the leftover " + leftover + " holding the output ended with its attempt", WAIT,
                        () -> ProcessHandle.of(leftover).map(h -> !h.isAlive()).orElse(true));
            }
        } finally {
            for (Path pid : pids) {
                if (Files.exists(pid)) {
                    ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
    }

    /** A process the command left that let go of its output (a daemon with stdio of its own) is not ours to end. */
    @Test
    void aLeftoverWithOutputOfItsOwnIsLeftRunning() throws Exception {
        Path pid = dir.resolve("pid");
        try {
            assertEquals(Outcome.done(), run("own-stdio", "sleep 60 </dev/null >/dev/null 2>&1 & echo $! > " + pid
                    + "; exit 0"));
            long leftover = Long.parseLong(Files.readString(pid).trim());
            assertTrue(ProcessHandle.of(leftover).map(ProcessHandle::isAlive).orElse(false),
                    "still running after its attempt settled");
        } finally {
            ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** The 8 KiB cut falls inside a two-byte character: both pieces get U+FFFD instead of the 'é'. */
    @Test
    void theLineCutNeverSplitsAUtf8Character() {
        String line = "a".repeat(ChildOutput.MAX_LINE - 1) + "é" + "tail";
        Path file = dir.resolve("line");
        try {
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        run("cut-utf8", "cat " + file);
        Await.until("both pieces logged", WAIT, () -> log.records().size() >= 2);
        String joined = log.lines().stream().map(m -> m.substring("[cut-utf8 #1 stdout] ".length()))
                .collect(Collectors.joining());
        assertFalse(joined.contains("\uFFFD"), "a replacement character where the cut fell");
        assertEquals(line, joined);
    }

    /** The 2 KiB tail starting on the second byte of a character puts U+FFFD at the start of the reason. */
    @Test
    void theReasonNeverStartsWithHalfACharacter() throws IOException {
        Path file = dir.resolve("err");
        Files.writeString(file, "é".repeat(1100) + "x", StandardCharsets.UTF_8); // 2201 bytes: the tail starts mid-'é'
        Outcome outcome = run("tail-utf8", "cat " + file + " >&2; exit 3");
        String reason = ((Outcome.Failed) outcome).reason();
        assertFalse(reason.contains("\uFFFD"), "reason: " + reason.substring(0, 12));
    }

    /** CRLF output: the logged line keeps its carriage return (a raw control byte in the service's log). */
    @Test
    void aCrlfLineIsLoggedWithoutItsCarriageReturn() {
        run("crlf", "printf 'one\\r\\ntwo\\r\\n'");
        Await.until("two lines", WAIT, () -> log.records().size() >= 2);
        assertEquals(List.of("[crlf #1 stdout] one", "[crlf #1 stdout] two"), log.lines());
    }

    /** Exit 1 after stderr: every one of 200 attempts gets the full 2 KiB tail (no race with the reader). */
    @Test
    void theTailIsCompleteForEveryNormalExit() throws IOException {
        StringBuilder err = new StringBuilder();
        for (int i = 0; err.length() < 3000; i++) {
            err.append("error line ").append(i).append('\n');
        }
        Path file = dir.resolve("err");
        Files.writeString(file, err);
        String bytes = err.toString();
        String expected = "exit 1: " + bytes.substring(bytes.length() - ChildOutput.REASON_BYTES).strip();
        Map<String, Integer> wrong = new java.util.TreeMap<>();
        for (int i = 0; i < 200; i++) {
            Outcome outcome = run("loop-" + i, "echo out; cat " + file + " >&2; exit 1");
            if (!new Outcome.Failed(expected).equals(outcome)) {
                wrong.merge(outcome.toString().substring(0, Math.min(60, outcome.toString().length())), 1, Integer::sum);
            }
        }
        assertEquals(Map.of(), wrong);
        Await.until("reader threads of the loop ended", WAIT, () -> readersOf("loop-").isEmpty());
    }

    /** Cancelled mid-run: the group is killed and both reader threads end (no leak on the KILL path). */
    @Test
    void aCancelledAttemptLeavesNoReaderThread() throws Exception {
        WorkItem item = new WorkItem("cancel-1", 1, new byte[0], 41, Instant.EPOCH);
        Path started = dir.resolve("started");
        Cancellable c = new ExecHandler("echo hi; (sleep 60; echo late) & touch " + started + "; sleep 60", workers)
                .handle(item).subscribe().with(o -> { }, e -> { });
        Await.until("started", WAIT, () -> Files.exists(started));
        c.cancel();
        Await.until("readers of the cancelled attempt ended", Duration.ofSeconds(10),
                () -> readersOf("cancel-1").isEmpty());
    }

    /**
     * "Never raw into the service's log": a line's control bytes (ESC, a lone CR, NUL) are logged as they
     * came, so a child can clear or rewrite an operator's terminal, or hide a line behind a CR.
     */
    @Test
    void controlBytesOfALineNeverReachTheLogRaw() {
        run("ctl", "printf 'ok\\033[2J\\033[1A\\rfake INFO line\\000\\n'");
        Await.until("the line", WAIT, () -> log.records().size() >= 1);
        String line = log.lines().get(0);
        assertFalse(line.chars().anyMatch(c -> c < 0x20 && c != '\t'), "control bytes logged: "
                + line.replace("\u001b", "<ESC>").replace("\r", "<CR>").replace("\u0000", "<NUL>"));
    }
}
