package io.leasehold.handler;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.ProcessTable;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The watchdog shell on its own, with real process groups. */
class ProcessWatchdogTest {

    static final Duration WAIT = Duration.ofSeconds(10);
    final List<Long> groups = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        groups.stream().filter(ProcessTable::groupAlive).forEach(ServiceProcess::killGroup);
    }

    /** A shell leading a group of its own, with a second process in it; answers the group id. */
    long group() throws IOException {
        Process leader = new ProcessBuilder("setsid", "/bin/sh", "-c", "sleep 601 & sleep 602").start();
        groups.add(leader.pid());
        Await.until("the group runs", WAIT, () -> ProcessTable.membersOf(leader.pid()).size() == 3);
        return leader.pid();
    }

    @Test
    void atTheEndOfItsInputItKillsEveryGroupStillRegisteredAndExits() throws IOException {
        ProcessWatchdog watchdog = ProcessWatchdog.start();
        long watched = group();
        long done = group();
        watchdog.register(watched);
        watchdog.register(done);
        watchdog.deregister(done);

        watchdog.close(); // what the kernel does to the pipe when the JVM dies
        Await.until("the watched group is gone", WAIT, () -> !ProcessTable.groupAlive(watched));
        assertTrue(ProcessTable.groupAlive(done), "a deregistered group is not its business");
        assertTrue(ServiceProcess.hasEnded(watchdog.pid()), "the watchdog exited");
    }

    @Test
    void itRunsInASessionOfItsOwnSoAGroupKillOfTheServiceSparesIt() throws IOException {
        ProcessWatchdog watchdog = ProcessWatchdog.start();
        try {
            // Right after the spawn it may still be setsid itself, about to make the session and exec the shell.
            Await.value("a session of its own", WAIT, () -> session(watchdog.pid()), s -> s == watchdog.pid());
            Await.value("found by its mark and the JVM's pid", WAIT, () -> ProcessTable.withArguments(
                    ProcessWatchdog.MARK, Long.toString(ProcessHandle.current().pid())),
                    pids -> pids.equals(List.of(watchdog.pid())));
        } finally {
            watchdog.close();
        }
    }

    static long session(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3]);
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void aWatchdogKilledByHandIsReplacedWithEveryGroupStillRegistered() throws IOException {
        ProcessWatchdog watchdog = ProcessWatchdog.start();
        long first = group();
        watchdog.register(first);
        long killed = watchdog.pid();
        ServiceProcess.killGroup(killed);
        Await.until("the watchdog is gone", WAIT, () -> ServiceProcess.hasEnded(killed));

        long second = group();
        watchdog.register(second);
        assertNotEquals(killed, watchdog.pid(), "a new one");
        watchdog.close();
        Await.until("both groups are gone", WAIT, () -> !ProcessTable.groupAlive(first)
                && !ProcessTable.groupAlive(second));
    }
}
