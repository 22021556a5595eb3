package io.leasehold.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Outcome;
import io.leasehold.testing.Await;
import io.leasehold.testing.LogCapture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * An exec child's stdout and stderr reach the log as lines tagged with the item and attempt, under a
 * category of their own, bounded in line length and count; a grandchild still holding the output when the
 * command exits is ended with the attempt.
 */
class ExecOutputTest extends ExecOutputFixture {

    private Outcome run(String command) {
        return run("item-7", 3, command);
    }

    private List<String> messages() {
        return log.lines();
    }

    @Test
    void eachLineIsLoggedTaggedStdoutAtInfoAndStderrAtWarn() {
        Outcome outcome = run("echo one; echo two; echo oops >&2; printf 'no newline'; exit 1");
        assertEquals(new Outcome.Failed("exit 1: oops"), outcome);
        Await.until("all four lines logged", WAIT, () -> log.records().size() >= 4);
        List<String> out = messages().stream().filter(m -> m.contains(" stdout]")).toList();
        assertEquals(List.of("[item-7 #3 stdout] one", "[item-7 #3 stdout] two", "[item-7 #3 stdout] no newline"), out);
        LogRecord err = log.records().stream().filter(r -> LogCapture.text(r).contains(" stderr]")).findFirst()
                .orElseThrow();
        assertEquals("[item-7 #3 stderr] oops", LogCapture.text(err));
        assertTrue(err.getLevel().intValue() >= Level.WARNING.intValue(), "stderr at WARN: " + err.getLevel());
        assertTrue(log.records().stream().filter(r -> LogCapture.text(r).contains(" stdout]"))
                .allMatch(r -> r.getLevel().intValue() < Level.WARNING.intValue()), "stdout below WARN");
    }

    @Test
    void theChildsLinesCarryTheItemsLogContext() {
        // Logged on the reader threads, which no item's code runs on: they set the context themselves.
        run("echo out; echo err >&2");
        Await.until("both lines logged", WAIT, () -> log.records().size() >= 2);
        Map<String, String> expected = Map.of("itemId", "item-7", "attempt", "3", "epoch", "41");
        assertEquals(expected, log.mdcOf("stdout] out"));
        assertEquals(expected, log.mdcOf("stderr] err"));
    }

    @Test
    void aChattyChildIsCutAtTheLineBoundAndStillRunsToItsEnd() throws Exception {
        Path end = dir.resolve("end");
        Outcome outcome = run("i=0; while [ $i -lt " + (ChildOutput.MAX_LINES + 500) + " ]; do echo line $i; "
                + "i=$((i+1)); done; touch " + end);
        assertEquals(Outcome.done(), outcome);
        assertTrue(Files.exists(end), "never blocked on a full pipe");
        Await.until("the bound's notice logged", WAIT,
                () -> messages().stream().anyMatch(m -> m.contains("the rest is not logged")));
        long stdout = messages().stream().filter(m -> m.startsWith("[item-7 #3 stdout] line ")).count();
        assertEquals(ChildOutput.MAX_LINES, stdout);
    }

    @Test
    void aLineLongerThanTheBoundIsLoggedInPieces() {
        int length = ChildOutput.MAX_LINE * 2 + 10;
        run("head -c " + length + " /dev/zero | tr '\\0' x; echo");
        Await.until("three pieces logged", WAIT, () -> log.records().size() >= 3);
        List<Integer> pieces = messages().stream().map(m -> m.length() - "[item-7 #3 stdout] ".length()).toList();
        assertEquals(List.of(ChildOutput.MAX_LINE, ChildOutput.MAX_LINE, 10), pieces);
    }

    /** What the command left running that holds its output ends with the attempt; the reason is still whole. */
    @Test
    void aGrandchildHoldingTheOutputIsEndedWithTheAttemptAndTheReasonKept() throws Exception {
        Path pid = dir.resolve("pid");
        Outcome outcome = run("sleep 60 & echo $! > " + pid + "; echo gave up >&2; exit 2");
        assertEquals(new Outcome.Failed("exit 2: gave up"), outcome);
        long grandchild = Long.parseLong(Files.readString(pid, StandardCharsets.UTF_8).trim());
        try {
            Await.until("the grandchild ended with its attempt", WAIT, () -> ended(grandchild));
        } finally {
            ProcessHandle.of(grandchild).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Gone, or a zombie: killed, and only waiting for whoever adopted it to reap it (the JDK calls a
     * zombie alive, and this machine's init may reap late). A live process is in any other state.
     */
    private static boolean ended(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state == 'Z' || state == 'X';
        } catch (IOException e) {
            return true;
        }
    }
}
