package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.testing.Await;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.LeaseCommandProcess.Finished;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code lease exec} and {@code lease status} of the packaged jar against a real nats-server: with a
 * serving holder (CMD acts under its epoch once it saw it renewed, and is stopped when that epoch goes
 * stale), with a dead one (the command waits and takes a fresh epoch), and without one (the command
 * takes the lease for its run on the service's floor, gives it back after, and stops CMD when it loses
 * it, KILL before the duration); without the service's spool it takes nothing.
 */
class LeaseExecNatsIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** CMD: says its epoch, waits for $W/go (at most a minute), and says a TERM it gets. */
    private static final String WAITING = "echo $$ > \"$W/pid\"; trap 'echo trapped TERM; exit 42' TERM; "
            + "echo \"epoch=$LEASEHOLD_EPOCH\"; i=0; while [ ! -e \"$W/go\" ] && [ $i -lt 600 ]; do sleep 0.1; "
            + "i=$((i+1)); done; echo finished";

    private final List<AutoCloseable> started = new ArrayList<>();
    private NatsServer nats;
    private Path work;
    private Map<String, String> config;

    @BeforeEach
    void setUp() throws IOException {
        nats = NatsServer.start();
        work = Files.createDirectories(Path.of("target", "it-work", "lease-exec-" + System.nanoTime()))
                .toAbsolutePath();
        config = Map.of("leasehold.nats.url", nats.url(), "leasehold.lease.bucket", "exec-" + System.nanoTime(),
                "leasehold.lease.duration", "3s", "leasehold.lease.renew-every", "1s",
                "leasehold.lease.renew-deadline", "2s", "leasehold.spool.dir", work.resolve("spool").toString());
        // As a service leaves it: lease exec keeps its floor in the service's spool, never one of its own.
        Files.createDirectories(work.resolve("spool"));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : started) {
            c.close();
        }
        Path pid = work.resolve("pid");
        if (Files.exists(pid)) {
            // CMD runs in a session of its own: a failed test must not leave it behind.
            ServiceProcess.killGroup(Long.parseLong(Files.readString(pid).strip()));
        }
        nats.close();
    }

    private LeaseCommandProcess exec(String name, String script) {
        LeaseCommandProcess p = LeaseCommandProcess.start(name, config, Map.of("W", work.toString()),
                "exec", "--", "sh", "-c", script);
        started.add(p);
        return p;
    }

    private JsonNode status() {
        Finished run = LeaseCommandProcess.run("status", config, Map.of(), DEADLINE, "status");
        assertEquals(0, run.status(), run.stderr());
        try {
            return JSON.readTree(run.stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(run.stdout(), e);
        }
    }

    private ServiceProcess serve(String name) {
        Map<String, String> serviceConfig = new HashMap<>(config);
        serviceConfig.put("leasehold.drain.auto", "false");
        ServiceProcess p = ServiceProcess.start(name, serviceConfig, Map.of());
        started.add(p);
        return p.awaitReady(DEADLINE);
    }

    private static JsonNode lease(ServiceProcess service) {
        try {
            return JSON.readTree(service.get("/lease"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode held(ServiceProcess service) {
        return Await.value(service.name() + " holds the lease", DEADLINE, () -> lease(service),
                l -> l.get("mode").asText().equals("held"));
    }

    private static long epochSaid(LeaseCommandProcess exec) {
        Await.until("CMD says its epoch", DEADLINE, () -> exec.stdout().contains("epoch="));
        String line = exec.stdout().lines().filter(l -> l.startsWith("epoch=")).findFirst().orElseThrow();
        return Long.parseLong(line.substring("epoch=".length()));
    }

    @Test
    void withoutAHolderExecTakesTheLeaseForItsRunAndGivesItBack() throws IOException {
        assertEquals("free", status().get("state").asText());

        LeaseCommandProcess exec = exec("taker", WAITING);
        long epoch = epochSaid(exec);
        assertTrue(epoch > 0, "a taken lease has a real epoch, got " + epoch);
        JsonNode during = status();
        assertEquals("held", during.get("state").asText(), during.toString());
        assertEquals(epoch, during.get("epoch").asLong());
        assertTrue(during.get("holder").get("instance").asText().contains("pid " + exec.pid() + " "),
                "the exec process holds it: " + during);
        long floor = Long.parseLong(Files.readString(work.resolve("spool/lease/epoch-floor")).strip());
        assertTrue(floor >= epoch, "the epoch floor in the spool knows the epoch (or a renewal after it): " + floor);

        Files.createFile(work.resolve("go"));
        assertEquals(0, exec.awaitExit(DEADLINE), exec.stderr());
        assertTrue(exec.stdout().endsWith("finished\n"), exec.stdout());
        assertTrue(exec.stderr().contains("released the controller lease (epoch " + epoch + ")"), exec.stderr());
        JsonNode after = status();
        assertEquals("free", after.get("state").asText(), "given back after the run: " + after);
        assertEquals("released", after.get("vacancy").asText(), after.toString());
    }

    @Test
    void withAServingHolderCommandActsUnderItsEpoch() {
        ServiceProcess holder = serve("holder");
        JsonNode lease = held(holder);
        long epoch = lease.get("epoch").asLong();

        Finished run = LeaseCommandProcess.run("borrower", config, Map.of(), DEADLINE,
                "exec", "--", "sh", "-c", "echo \"$LEASEHOLD_EPOCH\"");
        assertEquals(0, run.status(), run.stderr());
        assertEquals(epoch + "\n", run.stdout());
        assertTrue(run.stderr().contains("seen renewing: CMD acts under its epoch " + epoch), run.stderr());

        JsonNode said = status();
        assertEquals("held", said.get("state").asText());
        assertEquals(epoch, said.get("epoch").asLong());
        assertEquals(lease.get("holder").get("instance").asText(), said.get("holder").get("instance").asText());
        JsonNode after = lease(holder);
        assertEquals("held", after.get("mode").asText(), "the holder was left alone: " + after);
        assertEquals(epoch, after.get("epoch").asLong());
    }

    @Test
    void whenTheHoldersEpochGoesStaleTheCommandIsTerminated() {
        ServiceProcess first = serve("first");
        long firstEpoch = held(first).get("epoch").asLong();
        ServiceProcess second = serve("second");
        LeaseCommandProcess exec = exec("borrower", WAITING);
        assertEquals(firstEpoch, epochSaid(exec));

        first.kill();
        long secondEpoch = held(second).get("epoch").asLong();
        assertTrue(secondEpoch > firstEpoch, secondEpoch + " after " + firstEpoch);
        assertEquals(42, exec.awaitExit(DEADLINE), "CMD's trap answered the TERM:\n" + exec.stderr());
        assertTrue(exec.stdout().contains("trapped TERM"), exec.stdout());
        assertTrue(exec.stderr().contains("stopping CMD (process group"), exec.stderr());
    }

    @Test
    void whenTheCommandsOwnLeaseIsLostItGetsTermThenKillBeforeTheDuration() {
        // This CMD shrugs TERM off, so only the KILL ends it: due halfway from renew-deadline to duration.
        LeaseCommandProcess exec = exec("taker", "echo $$ > \"$W/pid\"; trap 'echo got TERM' TERM; "
                + "echo \"epoch=$LEASEHOLD_EPOCH\"; i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done");
        long epoch = epochSaid(exec);
        long stoppedAt = System.nanoTime();
        nats.stop();
        assertEquals(128 + 9, exec.awaitExit(DEADLINE), exec.stderr());
        Duration took = Duration.ofNanos(System.nanoTime() - stoppedAt);
        assertTrue(exec.stdout().contains("got TERM"), exec.stdout());
        String log = exec.stderr();
        assertTrue(log.contains("the controller lease was lost (epoch " + epoch + ")"), log);
        assertTrue(log.matches("(?s).*did not exit within \\d+ms of SIGTERM: SIGKILL.*"), "KILL 0.5s after TERM:\n" + log);
        // The last renewal was sent before the stop: KILL by then + 2.5s; a second more for the test to see it.
        assertTrue(took.compareTo(Duration.ofMillis(3500)) < 0, "exited " + took + " after the bus stopped:\n" + log);
    }

    @Test
    void whenTheCommandsOwnLeaseIsLostACommandThatExitsOnTermEndsTheRunAtOnce() {
        LeaseCommandProcess exec = exec("taker", WAITING);
        epochSaid(exec);
        long stoppedAt = System.nanoTime();
        nats.stop();
        assertEquals(42, exec.awaitExit(DEADLINE), "CMD's own status:\n" + exec.stderr());
        Duration took = Duration.ofNanos(System.nanoTime() - stoppedAt);
        // TERM at the deadline, at most 2s after the stop; no waiting for the KILL's time after CMD ended.
        assertTrue(took.compareTo(Duration.ofMillis(3000)) < 0, "exited " + took + " after the bus stopped:\n"
                + exec.stderr());
        assertTrue(exec.stdout().contains("trapped TERM"), exec.stdout());
    }

    @Test
    void afterTheHolderIsKilledExecWaitsAndTakesAFreshEpoch() throws IOException {
        ServiceProcess holder = serve("holder");
        long dead = held(holder).get("epoch").asLong();
        holder.kill();
        long killedAt = System.nanoTime();
        Finished run = LeaseCommandProcess.run("after", config, Map.of("W", work.toString()), DEADLINE,
                "exec", "--", "sh", "-c", "echo \"epoch=$LEASEHOLD_EPOCH\"");
        Duration took = Duration.ofNanos(System.nanoTime() - killedAt);
        assertEquals(0, run.status(), run.stderr());
        long epoch = Long.parseLong(run.stdout().strip().substring("epoch=".length()));
        assertTrue(epoch > dead, "a fresh epoch, not the dead holder's " + dead + ": " + epoch);
        assertTrue(run.stderr().contains("took the controller lease over from"), run.stderr());
        assertTrue(took.compareTo(Duration.ofSeconds(3)) >= 0, "not before a full duration: " + took);
        // The floor records the take and each renewal after it: at least this epoch.
        long floor = Long.parseLong(Files.readString(work.resolve("spool/lease/epoch-floor")).strip());
        assertTrue(floor >= epoch, "the floor " + floor + " holds the epoch issued, " + epoch);
    }

    @Test
    void withoutTheServicesSpoolExecTakesNoLeaseAndMakesNothingWhereItRuns() throws IOException {
        Path cwd = Files.createDirectories(work.resolve("elsewhere"));
        Map<String, String> unset = new HashMap<>(config);
        unset.remove("leasehold.spool.dir");
        Map<String, String> missing = new HashMap<>(config);
        missing.put("leasehold.spool.dir", work.resolve("no-such-spool").toString());
        for (Map<String, String> settings : List.of(unset, missing)) {
            LeaseCommandProcess exec = LeaseCommandProcess.startIn(cwd, "no-floor", settings,
                    Map.of("W", work.toString()), "exec", "--", "sh", "-c", "echo ran");
            started.add(exec);
            assertEquals(1, exec.awaitExit(DEADLINE), exec.stderr());
            assertEquals("", exec.stdout(), "CMD never ran");
            assertTrue(exec.stderr().contains("CMD not started: the lease cannot be taken")
                    && exec.stderr().contains("leasehold.spool.dir"), exec.stderr());
            try (var made = Files.list(cwd)) {
                assertEquals(List.of(), made.toList(), "nothing made where it ran");
            }
            assertTrue(Files.notExists(work.resolve("no-such-spool")), "no spool of its own");
            assertEquals("free", status().get("state").asText(), "nothing written to the lease either");
        }
    }
}
