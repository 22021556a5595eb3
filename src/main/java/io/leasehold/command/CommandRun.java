package io.leasehold.command;

import io.leasehold.core.Clock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * One run of CMD under one epoch: starts it, passes signals on, and stops it (TERM at once, KILL by
 * the deadline the lease or the borrowed epoch sets) when the epoch it acts under goes stale — also
 * when that is found out just before it starts.
 */
final class CommandRun {

    private static final Logger LOG = Logger.getLogger(CommandRun.class);
    /** Exit status when CMD could not be started at all (as a shell answers for a command it cannot run). */
    static final int NOT_STARTED = 127;

    private final Clock clock;
    private final Executor signals;
    private final AtomicReference<CommandProcess> child = new AtomicReference<>();
    private final AtomicReference<String> stopReason = new AtomicReference<>();
    private volatile long killAtNanos;
    private final List<String> pendingSignals = new ArrayList<>();

    /** {@code signals}: where kill(1) runs (see {@link CommandProcess#start}). */
    CommandRun(Clock clock, Executor signals) {
        this.clock = clock;
        this.signals = signals;
    }

    /**
     * The epoch CMD acts under is stale: stop CMD (or never start it), KILL by {@code killAtNanos} on
     * the monotonic clock. Safe from any thread, once or more.
     */
    void stop(String why, long killAtNanos) {
        this.killAtNanos = killAtNanos;
        stopReason.compareAndSet(null, why);
        CommandProcess running = child.get();
        if (running != null) {
            running.stop(why, killAtNanos);
        }
    }

    /** A signal for CMD's process group; kept until CMD runs when it comes before. */
    void signal(String name) {
        CommandProcess running;
        synchronized (pendingSignals) {
            running = child.get();
            if (running == null) {
                pendingSignals.add(name);
                return;
            }
        }
        LOG.infof("passing SIG%s on to CMD (process group %d)", name, running.pgid());
        running.signal(name);
    }

    /** Runs CMD to its end; answers its exit status (128 + signal when a signal ended it). */
    int run(List<String> argv, long epoch) {
        SignalForwarding.to(this); // before the start: no signal may end this JVM and leave CMD running
        String before = stopReason.get();
        if (before != null) {
            LOG.errorf("CMD not started: %s", before);
            return ExecCommand.NO_EPOCH;
        }
        CommandProcess started;
        try {
            started = CommandProcess.start(argv, epoch, clock, signals);
        } catch (IOException e) {
            LOG.errorf("could not start CMD %s: %s", argv, e.getMessage());
            return NOT_STARTED;
        }
        List<String> early;
        synchronized (pendingSignals) {
            child.set(started);
            early = List.copyOf(pendingSignals);
        }
        early.forEach(this::signal); // sent while CMD was being started
        LOG.infof("CMD started (pid and process group %d) under epoch %d", started.pgid(), epoch);
        String staleMeanwhile = stopReason.get();
        if (staleMeanwhile != null) {
            started.stop(staleMeanwhile, killAtNanos); // the epoch went stale between the decision and the start
        }
        int status = started.waitFor();
        String why = stopReason.get();
        if (started.stopped() && why != null) {
            LOG.warnf("CMD ended with status %d after it was stopped: %s", status, why);
        } else {
            LOG.infof("CMD ended with status %d", status);
        }
        return status;
    }
}
