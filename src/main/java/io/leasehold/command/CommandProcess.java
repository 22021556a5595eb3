package io.leasehold.command;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * CMD as {@code lease exec} runs it: in a session and process group of its own ({@code setsid}), with
 * this JVM's stdin, stdout and stderr, and {@code LEASEHOLD_EPOCH} in its environment. Signals and the
 * stop reach the whole group, so nothing CMD started is left running under a stale epoch.
 */
final class CommandProcess {

    private static final Logger LOG = Logger.getLogger(CommandProcess.class);

    private final Process process;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private volatile Thread killer;

    private CommandProcess(Process process) {
        this.process = process;
    }

    static CommandProcess start(List<String> argv, long epoch) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("setsid"); // not a group leader here, so setsid execs CMD itself: its pid is the pgid
        command.addAll(argv);
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().put("LEASEHOLD_EPOCH", Long.toString(epoch));
        return new CommandProcess(builder.start());
    }

    long pgid() {
        return process.pid();
    }

    /** Sends {@code signal} (e.g. TERM) to CMD's whole process group; quiet when the group is gone. */
    void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + pgid())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            LOG.warnf("could not send SIG%s to process group %d: %s", signal, pgid(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * TERM to the group now, KILL after {@code grace} if CMD has not exited by then. Only the first call
     * acts; returns at once (the KILL is sent from a thread of its own).
     */
    void stop(String why, Duration grace) {
        if (!stopping.compareAndSet(false, true) || !process.isAlive()) {
            return;
        }
        LOG.warnf("stopping CMD (process group %d) with SIGTERM, SIGKILL after %s: %s", pgid(), grace, why);
        signal("TERM");
        Thread killer = new Thread(() -> {
            long end = System.nanoTime() + grace.toNanos();
            try {
                if (!process.waitFor(grace.toNanos(), TimeUnit.NANOSECONDS)) {
                    LOG.warnf("CMD did not exit within %s of SIGTERM: SIGKILL to process group %d", grace, pgid());
                }
                // The leader may be gone while children that ignore TERM still act under the stale epoch:
                // at the end of the grace the whole group gets KILL whatever the leader did.
                for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
                    java.util.concurrent.locks.LockSupport.parkNanos(left);
                }
                signal("KILL");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "leasehold-exec-kill");
        killer.setDaemon(true);
        this.killer = killer;
        killer.start();
    }

    boolean stopped() {
        return stopping.get();
    }

    /** Waits for CMD; its exit status, or 128 + the signal that ended it. */
    int waitFor() {
        while (true) {
            try {
                int status = process.waitFor();
                Thread stopper = killer;
                if (stopper != null) {
                    stopper.join(); // the group's KILL goes out before this command exits
                }
                return status;
            } catch (InterruptedException e) {
                // Nobody is meant to interrupt the main thread; CMD's status is what this command answers.
                Thread.interrupted();
            }
        }
    }
}
