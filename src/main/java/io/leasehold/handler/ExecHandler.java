package io.leasehold.handler;

import io.leasehold.core.HandlerOutput;
import io.leasehold.core.Outcome;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Runs {@code /bin/sh -c command} per attempt, payload on stdin. Exit 0 is done, 75 (EX_TEMPFAIL) is
 * retry, anything else failed with the exit status and the tail of stderr. Its stdout and stderr are
 * logged line by line, tagged with the item and attempt ({@link ChildOutput}).
 *
 * <p>The shell runs in a session of its own ({@code setsid}), so everything it starts shares one
 * process group, and cancelling the attempt (claim lost, timeout, shutdown) kills that whole group.
 * Each group is registered with {@link ChildGroups} (the {@link ProcessWatchdog}) before the command
 * runs: a small wrapper shell waits for a "go" line on its stdin, written only once the group is
 * registered, so a JVM killed between the spawn and the registration leaves nothing running (the
 * wrapper reads end of input and exits).
 */
public final class ExecHandler implements Handler, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ExecHandler.class);
    public static final int EX_TEMPFAIL = 75;
    /** How long an exited command's output is given to end before what it left running is ended. */
    private static final long LEFTOVER_GRACE_MILLIS = 100;
    /** How long an exited command's output is waited for after that (a process out of the group may hold it). */
    private static final long STDERR_WAIT_MILLIS = 1000;
    private static final java.util.List<String> SECRETS = java.util.List.of("LEASEHOLD_API_TOKEN",
            "LEASEHOLD_NATS_PASSWORD", "LEASEHOLD_NATS_TOKEN", "LEASEHOLD_NATS_TLS_TRUSTSTORE_PASSWORD",
            "LEASEHOLD_NATS_TLS_KEYSTORE_PASSWORD");

    /** $1 is the command, $2 the payload file; the payload becomes stdin only after the go. */
    static final String WRAPPER = "IFS= read -r go && [ \"$go\" = go ] || exit 125\n"
            + "exec <\"$2\" && exec /bin/sh -c \"$1\"";
    private static final byte[] GO = "go\n".getBytes(StandardCharsets.US_ASCII);

    private final String command;
    private final Executor workers;
    private final ChildGroups children;

    /** Unwatched: a JVM that dies leaves its children running (for tests of the handler alone). */
    public ExecHandler(String command, Executor workers) {
        this(command, workers, ChildGroups.NONE);
    }

    public ExecHandler(String command, Executor workers, ChildGroups children) {
        this.command = command;
        this.workers = workers;
        this.children = children;
    }

    /** Closes the watchdog when this handler owns one (at shutdown, after the drain stopped). */
    @Override
    public void close() throws Exception {
        if (children instanceof AutoCloseable owned) {
            owned.close();
        }
    }

    @Override
    public Uni<Outcome> handle(WorkItem item) {
        // An attempt cancelled while it waited for a worker (the lease lost under a starved pool) must not
        // start its command late: the go is the act, and it would carry an epoch that is no longer valid.
        AtomicBoolean cancelled = new AtomicBoolean();
        return Uni.createFrom().<Outcome>emitter(emitter -> {
            if (cancelled.get()) {
                return;
            }
            Run run;
            try {
                run = start(item, cancelled);
            } catch (IOException e) {
                emitter.complete(Outcome.retry("could not start the command: " + e.getMessage()));
                return;
            }
            if (run == null) {
                return; // cancelled before its go: nothing ran
            }
            emitter.onTermination(run::stopUnlessExited);
            run.process.onExit().whenComplete((exited, error) -> {
                children.deregister(run.process.pid());
                emitter.complete(run.outcome());
            });
        }).runSubscriptionOn(workers).onCancellation().invoke(() -> cancelled.set(true));
    }

    /** Null when the attempt was cancelled before the command's go: the wrapper is ended, nothing ran. */
    private Run start(WorkItem item, AtomicBoolean cancelled) throws IOException {
        Path stdin = Files.createTempFile("leasehold-stdin-", ".bin");
        try {
            Files.write(stdin, item.payload());
            // Both streams are piped and logged line by line, tagged (ChildOutput): never raw into the log.
            ProcessBuilder builder = new ProcessBuilder("setsid", "/bin/sh", "-c", WRAPPER, "leasehold-exec", command,
                    stdin.toString());
            Map<String, String> env = builder.environment();
            // The service's own secrets are not the command's business.
            SECRETS.forEach(env::remove);
            env.put("LEASEHOLD_ITEM_ID", item.id());
            env.put("LEASEHOLD_ATTEMPT", Integer.toString(item.attempt()));
            env.put("LEASEHOLD_EPOCH", Long.toString(item.epoch()));
            env.remove("LEASEHOLD_FIRE_TIME"); // the service's own environment's, if any, is not this item's
            item.fireTime().ifPresent(t -> env.put("LEASEHOLD_FIRE_TIME", t.toString()));
            Process process = builder.start();
            ChildOutput stdout = ChildOutput.follow(item.id(), item.attempt(), item.epoch(), "stdout", process.getInputStream());
            ChildOutput stderr = ChildOutput.follow(item.id(), item.attempt(), item.epoch(), "stderr", process.getErrorStream());
            // setsid made the shell the leader of a group of its own: its pid is the group's id.
            try {
                children.register(process.pid());
            } catch (IOException | RuntimeException e) {
                process.destroyForcibly(); // still waiting for its go: nothing ran
                throw e;
            }
            if (cancelled.get()) {
                children.deregister(process.pid());
                process.destroyForcibly(); // still waiting for its go: nothing ran
                Files.deleteIfExists(stdin);
                return null;
            }
            try (OutputStream go = process.getOutputStream()) {
                go.write(GO);
            } catch (IOException e) {
                LOG.debugf("the command of %s ended before its go: %s", item.id(), e.getMessage());
            }
            return new Run(item, process, stdin, stdout, stderr);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(stdin);
            throw e;
        }
    }

    private static final class Run {
        final WorkItem item;
        final Process process;
        final Path stdin;
        final ChildOutput stdout;
        final ChildOutput stderr;
        final AtomicBoolean finished = new AtomicBoolean();

        Run(WorkItem item, Process process, Path stdin, ChildOutput stdout, ChildOutput stderr) {
            this.item = item;
            this.process = process;
            this.stdin = stdin;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        Outcome outcome() {
            int status = process.exitValue();
            endLeftovers();
            cleanUp();
            // The readers may lag behind the exit (a chatty child's lines are logged one by one): the output is
            // reported once stdout is through, or quiet (a process out of the group may hold the pipe open).
            stdout.awaitEndWhileBusy(STDERR_WAIT_MILLIS);
            if (status == 0) {
                stderr.awaitEndWhileBusy(STDERR_WAIT_MILLIS); // no reason to give: only its output waits for it
                report(status);
                return Outcome.done();
            }
            String tail = stderr.tail(STDERR_WAIT_MILLIS);
            report(status);
            String reason = "exit " + status + (tail.isEmpty() ? "" : ": " + tail);
            return status == EX_TEMPFAIL ? Outcome.retry(reason) : Outcome.failed(reason);
        }

        /** The streams' tails as they are now, with the exit status (null when the command was stopped). */
        private void report(Integer status) {
            HandlerOutput shown = new HandlerOutput(status, List.of(stdout.part("stdout"), stderr.part("stderr")));
            if (status == null || status != 0 || !shown.parts().stream().allMatch(p -> p.text().isEmpty())) {
                item.report(shown); // a silent success shows nothing worth keeping
            }
        }

        /**
         * What the command left running in its group and that still holds its output (a {@code cmd &}) is
         * ended with the attempt: it would hold two pipes and two reader threads of the service for as long
         * as it lives. One that let go of its output (a daemon with its own stdio) is left alone.
         */
        private void endLeftovers() {
            long pgid = process.pid();
            // Only a group that still has members: once empty its id may be a new process's (and the
            // output may just be slow to drain, a chatty child's backlog, which then runs to its end).
            if ((!stdout.awaitEnd(LEFTOVER_GRACE_MILLIS) || !stderr.awaitEnd(LEFTOVER_GRACE_MILLIS))
                    && ProcessGroups.hasMembers(pgid)) {
                signalGroup(pgid); // not destroy(): that would close the pipes under the readers
            }
        }

        /** Called on every termination; kills the group only when the attempt was cut short. */
        void stopUnlessExited() {
            if (process.isAlive()) {
                killGroup();
                report(null); // what it showed until it was stopped: why a timed-out attempt hung, say
            }
            cleanUp();
        }

        private void killGroup() {
            signalGroup(process.pid());
            process.destroyForcibly();
        }

        private static void signalGroup(long pgid) {
            try {
                // setsid made the shell the leader of its own group: -pgid reaches every descendant.
                new ProcessBuilder("kill", "-KILL", "--", "-" + pgid)
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            } catch (IOException e) {
                LOG.warnf("could not signal process group %d: %s", pgid, e.getMessage());
            }
        }

        private void cleanUp() {
            if (finished.compareAndSet(false, true)) {
                // The wrapper opens the payload by name after its go, so the name lives as long as the run.
                try {
                    Files.deleteIfExists(stdin);
                } catch (IOException e) {
                    LOG.debugf("could not remove %s: %s", stdin, e.getMessage());
                }
            }
        }
    }
}
