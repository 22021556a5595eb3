package io.leasehold.it;

import static io.leasehold.it.FencingRig.WITHIN;
import static io.leasehold.it.LeaseCluster.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.ActLog;
import io.leasehold.testing.ActLog.Act;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.ServiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 9, scenario 7: the epoch floor of {@code lease exec}. A service on a spool whose floor says 500
 * epochs were issued holds the lease and acts; each round the NATS store is wiped, and {@code lease exec}
 * is run from another working directory, where it must take the lease (nobody holds it). Without
 * {@code leasehold.spool.dir} it cannot read the floor: it refuses with exit 1 naming the key, runs no
 * CMD and creates no {@code ./spool}. Given the service's spool — as {@code -D}, as the environment
 * variable, or in {@code config/application.properties} of its working directory, by turns — it takes
 * an epoch above every earlier one, no sooner than a full duration after the reset, and creates nothing
 * where it runs. LeaseCluster's timings.
 */
class LeaseExecFloorFaultIT {

    private static final long FLOOR = 500;
    private static final int ACTS = 20;

    @RegisterExtension
    final FencingRigs rigs = new FencingRigs();
    private FencingRig rig;
    private ServiceProcess service;
    private long serviceEpoch;

    @BeforeEach
    void serviceOnAFloorOf500() throws IOException {
        rig = rigs.start("exec-floor", FencingRig.Timing.SHORT);
        Path floor = Files.createDirectories(rig.cluster.spool.spoolDir().resolve("lease")).resolve("epoch-floor");
        Files.writeString(floor, FLOOR + "\n");
        service = rig.serve("s").awaitReady(START);
        serviceEpoch = FencingRig.awaitHeld(service, FLOOR).epoch();
        rig.keepPending(2);
        rig.awaitActUnder("the service acts under epoch " + serviceEpoch, e -> e == serviceEpoch);
    }

    @Test
    void withoutTheSpoolDirTheCommandRefusesNamingTheKeyAndCreatesNothing() throws IOException {
        for (int round = 1; round <= FaultRounds.fencing(); round++) {
            wipe();
            String name = "no-spool-r" + round;
            Path cwd = workingDirectory(name);
            Map<String, String> config = rig.commandConfig();
            config.remove("leasehold.spool.dir");
            LeaseCommandProcess exec = rig.exec(name, cwd, config, Map.of(), "", rig.acts.acts(FencingRig.who(name),
                    ACTS));
            int status = exec.awaitExit(WITHIN);
            serviceLost();

            String context = "round " + round + ", lease exec in " + cwd + " without leasehold.spool.dir";
            System.out.printf("exec floor round %d without the spool dir: exit %d, CMD acted under %s, ./spool made: "
                    + "%s; stderr: %s%n", round, status, rig.actsOf(name).stream().map(Act::epoch).distinct().toList(),
                    Files.exists(cwd.resolve("spool")), lastLine(exec.stderr()));
            assertFalse(Files.exists(cwd.resolve("spool")), context + ": created " + cwd.resolve("spool"));
            assertEquals(List.of(), rig.actsOf(name), context + ": CMD never runs");
            assertEquals(1, status, context + ":\n" + exec.stderr());
            assertTrue(exec.stderr().contains("leasehold.spool.dir"), context + ": names the key:\n" + exec.stderr());
            rig.settledFencing(context, Long.MAX_VALUE);
        }
        rig.report("exec without the spool dir");
    }

    @Test
    void givenTheServicesSpoolTheCommandTakesAnEpochAboveTheFloorAfterAFullDuration() throws IOException {
        long highest = serviceEpoch;
        for (int round = 1; round <= FaultRounds.fencing(); round++) {
            long restartedAt = wipe();
            String name = "spool-r" + round;
            Path cwd = workingDirectory(name);
            Map<String, String> config = rig.commandConfig();
            String spool = config.remove("leasehold.spool.dir");
            Map<String, String> env = Map.of();
            String how = switch (round % 3) {
                case 1 -> {
                    config.put("leasehold.spool.dir", spool);
                    yield "-Dleasehold.spool.dir";
                }
                case 2 -> {
                    env = Map.of("LEASEHOLD_SPOOL_DIR", spool);
                    yield "LEASEHOLD_SPOOL_DIR";
                }
                default -> {
                    Files.writeString(Files.createDirectories(cwd.resolve("config")).resolve("application.properties"),
                            "leasehold.spool.dir=" + spool + "\n");
                    yield "config/application.properties";
                }
            };
            LeaseCommandProcess exec = rig.exec(name, cwd, config, env, "", rig.acts.acts(FencingRig.who(name), ACTS));
            int status = exec.awaitExit(WITHIN);
            serviceLost();

            String context = "round " + round + ", lease exec in " + cwd + " with the spool by " + how;
            List<Act> cmd = rig.actsOf(name);
            System.out.printf("exec floor round %d with the spool by %s: exit %d, CMD acted under %s from %d ms after "
                    + "NATS came back (earlier epochs up to %d)%n", round, how, status,
                    cmd.stream().map(Act::epoch).distinct().toList(),
                    cmd.isEmpty() ? -1 : cmd.get(0).atMillis() - restartedAt, highest);
            rig.settledFencing(context, Long.MAX_VALUE);
            assertEquals(0, status, context + ":\n" + exec.stderr());
            assertEquals(ACTS, cmd.size(), context + ": CMD ran to its end");
            long epoch = cmd.get(0).epoch();
            assertTrue(epoch > highest && epoch > FLOOR, context + ": epoch " + epoch + " above the floor " + FLOOR
                    + " and every earlier epoch (" + highest + ")");
            assertTrue(cmd.get(0).atMillis() - restartedAt >= rig.timing.duration().toMillis(), context + ": CMD acted "
                    + (cmd.get(0).atMillis() - restartedAt) + " ms after the reset store came back, before a full "
                    + "duration");
            assertFalse(Files.exists(cwd.resolve("spool")), context + ": created " + cwd.resolve("spool"));
            highest = epoch;
        }
        rig.report("exec with the service's spool");
    }

    /** Wipes the NATS store and starts it again; answers when it was started. */
    private long wipe() {
        rig.cluster.nats.wipeStore();
        long restartedAt = ActLog.nowMillis();
        rig.cluster.nats.restart();
        return restartedAt;
    }

    /** The first wipe costs the service its lease (after the command ran: it must not wait for that). */
    private void serviceLost() {
        if (service != null) {
            assertEquals(3, service.awaitExit(WITHIN), "the service loses its lease to the wipe:\n" + service.logText());
            service = null;
        }
    }

    private Path workingDirectory(String name) throws IOException {
        return Files.createDirectories(rig.acts.file().resolveSibling("cwd-" + name));
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines[lines.length - 1];
    }
}
