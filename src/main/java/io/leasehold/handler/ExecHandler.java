package io.leasehold.handler;

import io.leasehold.core.Outcome;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Runs {@code /bin/sh -c command} per attempt, payload on stdin. Exit 0 is done, 75 (EX_TEMPFAIL) is
 * retry, anything else failed with the exit status and the tail of stderr.
 *
 * <p>The shell runs in a session of its own ({@code setsid}), so everything it starts shares one
 * process group, and cancelling the attempt (claim lost, timeout, shutdown) kills that whole group.
 */
public final class ExecHandler implements Handler {

    private static final Logger LOG = Logger.getLogger(ExecHandler.class);
    public static final int EX_TEMPFAIL = 75;
    private static final int STDERR_TAIL_BYTES = 2048;
    private static final java.util.List<String> SECRETS = java.util.List.of("LEASEHOLD_API_TOKEN",
            "LEASEHOLD_NATS_PASSWORD", "LEASEHOLD_NATS_TOKEN", "LEASEHOLD_NATS_TLS_TRUSTSTORE_PASSWORD",
            "LEASEHOLD_NATS_TLS_KEYSTORE_PASSWORD");

    private final String command;
    private final Executor workers;

    public ExecHandler(String command, Executor workers) {
        this.command = command;
        this.workers = workers;
    }

    @Override
    public Uni<Outcome> handle(WorkItem item) {
        return Uni.createFrom().<Outcome>emitter(emitter -> {
            Run run;
            try {
                run = start(item);
            } catch (IOException e) {
                emitter.complete(Outcome.retry("could not start the command: " + e.getMessage()));
                return;
            }
            emitter.onTermination(run::stopUnlessExited);
            run.process.onExit().whenComplete((exited, error) -> emitter.complete(run.outcome()));
        }).runSubscriptionOn(workers);
    }

    private Run start(WorkItem item) throws IOException {
        Path stdin = Files.createTempFile("leasehold-stdin-", ".bin");
        Path stderr = Files.createTempFile("leasehold-stderr-", ".txt");
        try {
            Files.write(stdin, item.payload());
            ProcessBuilder builder = new ProcessBuilder("setsid", "/bin/sh", "-c", command)
                    .redirectInput(stdin.toFile())
                    .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(stderr.toFile());
            Map<String, String> env = builder.environment();
            // The service's own secrets are not the command's business.
            SECRETS.forEach(env::remove);
            env.put("LEASEHOLD_ITEM_ID", item.id());
            env.put("LEASEHOLD_ATTEMPT", Integer.toString(item.attempt()));
            env.put("LEASEHOLD_EPOCH", Long.toString(item.epoch()));
            return new Run(builder.start(), stderr);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(stderr);
            throw e;
        } finally {
            // The child holds its own descriptor; the name is not needed any more.
            Files.deleteIfExists(stdin);
        }
    }

    private static final class Run {
        final Process process;
        final Path stderr;
        final AtomicBoolean finished = new AtomicBoolean();

        Run(Process process, Path stderr) {
            this.process = process;
            this.stderr = stderr;
        }

        Outcome outcome() {
            int status = process.exitValue();
            String tail = stderrTail();
            cleanUp();
            if (status == 0) {
                return Outcome.done();
            }
            String reason = "exit " + status + (tail.isEmpty() ? "" : ": " + tail);
            return status == EX_TEMPFAIL ? Outcome.retry(reason) : Outcome.failed(reason);
        }

        /** Called on every termination; kills the group only when the attempt was cut short. */
        void stopUnlessExited() {
            if (process.isAlive()) {
                killGroup();
            }
            cleanUp();
        }

        private void killGroup() {
            long pgid = process.pid();
            try {
                // setsid made the shell the leader of its own group: -pgid reaches every descendant.
                new ProcessBuilder("kill", "-KILL", "--", "-" + pgid)
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            } catch (IOException e) {
                LOG.warnf("could not signal process group %d: %s", pgid, e.getMessage());
            }
            process.destroyForcibly();
        }

        private String stderrTail() {
            try (RandomAccessFile file = new RandomAccessFile(stderr.toFile(), "r")) {
                long length = file.length();
                long from = Math.max(0, length - STDERR_TAIL_BYTES);
                byte[] bytes = new byte[(int) (length - from)];
                file.seek(from);
                file.readFully(bytes);
                return new String(bytes, StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                return "";
            }
        }

        private void cleanUp() {
            if (finished.compareAndSet(false, true)) {
                try {
                    Files.deleteIfExists(stderr);
                } catch (IOException e) {
                    LOG.debugf("could not remove %s: %s", stderr, e.getMessage());
                }
            }
        }
    }
}
