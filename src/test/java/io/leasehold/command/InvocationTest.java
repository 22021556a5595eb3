package io.leasehold.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class InvocationTest {

    @Test
    void statusTakesNoArguments() throws UsageException {
        assertEquals(Invocation.Kind.STATUS, Invocation.parse(List.of("status")).kind());
        UsageException e = assertThrows(UsageException.class, () -> Invocation.parse(List.of("status", "x")));
        assertTrue(e.getMessage().contains("no arguments"), e.getMessage());
    }

    @Test
    void execRunsTheWordsAfterTheDoubleDashAsTheyAre() throws UsageException {
        Invocation exec = Invocation.parse(List.of("exec", "--", "sh", "-c", "exit 7"));
        assertEquals(Invocation.Kind.EXEC, exec.kind());
        assertFalse(exec.shell());
        assertEquals(List.of("sh", "-c", "exit 7"), exec.argv());
    }

    @Test
    void wordsAfterTheDoubleDashAreNeverOptions() throws UsageException {
        Invocation exec = Invocation.parse(List.of("exec", "--", "--shell", "-x"));
        assertFalse(exec.shell());
        assertEquals(List.of("--shell", "-x"), exec.argv());
    }

    @Test
    void shellJoinsTheWordsIntoOneLineForBinSh() throws UsageException {
        Invocation exec = Invocation.parse(List.of("exec", "--shell", "--", "echo $LEASEHOLD_EPOCH", "&&", "exit 3"));
        assertTrue(exec.shell());
        assertEquals(List.of("/bin/sh", "-c", "echo $LEASEHOLD_EPOCH && exit 3"), exec.argv());
    }

    @Test
    void theDoubleDashMayBeLeftOutBeforeAPlainCommand() throws UsageException {
        assertEquals(List.of("true"), Invocation.parse(List.of("exec", "true")).argv());
    }

    @Test
    void wrongCommandLinesAreUsageErrors() {
        assertThrows(UsageException.class, () -> Invocation.parse(List.of()));
        assertThrows(UsageException.class, () -> Invocation.parse(List.of("hold")));
        assertThrows(UsageException.class, () -> Invocation.parse(List.of("exec")));
        assertThrows(UsageException.class, () -> Invocation.parse(List.of("exec", "--")));
        assertThrows(UsageException.class, () -> Invocation.parse(List.of("exec", "--shell", "--")));
        UsageException e = assertThrows(UsageException.class, () -> Invocation.parse(List.of("exec", "-v", "--", "x")));
        assertTrue(e.getMessage().contains("'-v'"), e.getMessage());
    }

    @Test
    void helpIsAsked() throws UsageException {
        assertEquals(Invocation.Kind.HELP, Invocation.parse(List.of("--help")).kind());
        assertEquals(Invocation.Kind.HELP, Invocation.parse(List.of("help")).kind());
    }

    @Test
    void everyLevelTakesHelpAndVersion() throws UsageException {
        for (List<String> words : List.of(List.of("--help"), List.of("status", "--help"), List.of("exec", "--help"),
                List.of("exec", "--shell", "-h"))) {
            assertEquals(Invocation.Kind.HELP, Invocation.parse(words).kind(), words.toString());
        }
        for (List<String> words : List.of(List.of("--version"), List.of("status", "--version"), List.of("exec", "-V"))) {
            assertEquals(Invocation.Kind.VERSION, Invocation.parse(words).kind(), words.toString());
        }
        assertEquals(List.of("--help"), Invocation.parse(List.of("exec", "--", "--help")).argv(), "after -- it is CMD's");
    }
}
