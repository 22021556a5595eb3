package io.leasehold.command;

import io.leasehold.core.DurationText;
import io.leasehold.core.Clock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * CMD as {@code lease exec} runs it: in a session and process group of its own ({@code setsid}), with
 * this JVM's stdin, stdout and stderr, and {@code LEASEHOLD_EPOCH} in its environment. Signals and the
 * stop reach the whole group, so nothing CMD started is left running under a stale epoch.
 */
final class CommandProcess {

    private static final Logger LOG = Logger.getLogger(CommandProcess.class);

    private final Process process;
    private final Clock clock;
    private final Executor signals;
    private final Object lock = new Object();
    private boolean stopping;
    private long killAtNanos;
    private Clock.Timer killTimer;

    private CommandProcess(Process process, Clock clock, Executor signals) {
        this.process = process;
        this.clock = clock;
        this.signals = signals;
    }

    /** {@code signals}: where kill(1) runs for a stop, never on the clock's timer thread. */
    static CommandProcess start(List<String> argv, long epoch, Clock clock, Executor signals) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("setsid"); // not a group leader here, so setsid execs CMD itself: its pid is the pgid
        command.addAll(argv);
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().put("LEASEHOLD_EPOCH", Long.toString(epoch));
        return new CommandProcess(builder.start(), clock, signals);
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
     * TERM to the group now, KILL at {@code killAtNanos} on the monotonic clock — or as soon as CMD
     * exits, if that comes first, for whatever it left in its group. Returns at once. A later call only
     * brings the KILL forward, never back.
     */
    void stop(String why, long killAtNanos) {
        long now = clock.monotonicNanos();
        synchronized (lock) {
            if (stopping) {
                if (killAtNanos < this.killAtNanos) {
                    armKill(killAtNanos, now);
                }
                return;
            }
            stopping = true;
            armKill(killAtNanos, now);
        }
        LOG.warnf("stopping CMD (process group %d) with SIGTERM, SIGKILL in %s unless it exits first: %s", pgid(),
                Duration.ofMillis(Math.max(0, killAtNanos - now) / 1_000_000), why);
        later(() -> signal("TERM"));
    }

    private void later(Runnable send) {
        try {
            signals.execute(send);
        } catch (RejectedExecutionException e) {
            // The command is ending: waitFor has KILLed the group already.
        }
    }

    private void armKill(long at, long now) {
        if (killTimer != null) {
            killTimer.close();
        }
        this.killAtNanos = at;
        Duration grace = Duration.ofNanos(Math.max(0, at - now));
        killTimer = clock.timer("leasehold-exec-kill", grace, () -> later(() -> {
            if (process.isAlive()) {
                LOG.warnf("CMD did not exit within %s of SIGTERM: SIGKILL to process group %d",
                        DurationText.of(Duration.ofMillis(grace.toMillis())), pgid());
            }
            signal("KILL");
        }));
    }

    boolean stopped() {
        synchronized (lock) {
            return stopping;
        }
    }

    /**
     * Waits for CMD; its exit status, or 128 + the signal that ended it. When CMD was stopped, what it
     * left in its group is KILLed before this returns: the epoch is stale, and nothing waits for the deadline.
     */
    int waitFor() {
        int status = awaitExit();
        boolean stopped;
        synchronized (lock) {
            stopped = stopping;
            if (killTimer != null) {
                killTimer.close();
            }
        }
        if (stopped) {
            signal("KILL");
        }
        return status;
    }

    private int awaitExit() {
        while (true) {
            try {
                return process.waitFor();
            } catch (InterruptedException e) {
                // Nobody is meant to interrupt the main thread; CMD's status is what this command answers.
                Thread.interrupted();
            }
        }
    }
}
