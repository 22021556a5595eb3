package io.leasehold.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.it.LeaseCluster.Lease;
import io.leasehold.testing.ActLog;
import io.leasehold.testing.ActLog.Act;
import io.leasehold.testing.Await;
import io.leasehold.testing.Fencing;
import io.leasehold.testing.LeaseCommandProcess;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool.Run;
import io.leasehold.testing.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.function.Predicate;

/**
 * The world of one fencing scenario of issue 9: its own nats-server and lease bucket, a shared spool
 * whose exec handler acts in a loop until its attempt is cancelled ({@link ActLog}), packaged services
 * in {@code leasehold.drain.mode=leader} (one item at a time) that each reach NATS through a
 * {@link TcpProxy} of their own, and {@code lease exec} commands on the same bucket, whose CMD acts into
 * the same log. Close it to kill everything it started, CMDs included.
 */
final class FencingRig implements AutoCloseable {

    /** Lease timings of a scenario. */
    record Timing(Duration duration, Duration renewEvery, Duration renewDeadline) {

        /** LeaseCluster's: duration 3s, renew-every 1s, renew-deadline 2s. */
        static final Timing SHORT = new Timing(LeaseCluster.DURATION, LeaseCluster.RENEW_EVERY,
                LeaseCluster.RENEW_DEADLINE);

        Map<String, String> config() {
            return Map.of("leasehold.lease.duration", duration.toMillis() + "ms",
                    "leasehold.lease.renew-every", renewEvery.toMillis() + "ms",
                    "leasehold.lease.renew-deadline", renewDeadline.toMillis() + "ms");
        }

        @Override
        public String toString() {
            return "duration " + duration.toMillis() + " ms, renew-every " + renewEvery.toMillis()
                    + " ms, renew-deadline " + renewDeadline.toMillis() + " ms";
        }
    }

    /** Generous bound for any one step on a busy 2-core machine: only a limit, never a wait. */
    static final Duration WITHIN = Duration.ofSeconds(60);
    /** An actor that has not acted for this long (20 of its periods) has stopped. */
    private static final Duration QUIET = Duration.ofSeconds(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    final LeaseCluster cluster;
    final ActLog acts;
    final Timing timing;
    private final Map<ServiceProcess, TcpProxy> proxies = new LinkedHashMap<>();
    private final List<TcpProxy> commandProxies = new ArrayList<>();
    private final List<LeaseCommandProcess> commands = new ArrayList<>();
    private final List<Path> commandPids = new ArrayList<>();
    private int items;

    /** What an attempt runs, given the act log: shell that acts into it. */
    @FunctionalInterface
    interface Work {
        String shell(ActLog acts);
    }

    /** Attempts that act until they are stopped (longer than any deadline). */
    static final Work UNTIL_STOPPED = acts -> acts.loop("$INSTANCE/$$");

    /** Attempts that act for about {@code seconds} (every 50 ms), then end. */
    static Work acting(int seconds) {
        return acts -> acts.acts("$INSTANCE/$$", (int) (seconds * 1000 / ActLog.EVERY.toMillis()));
    }

    FencingRig(String name, Timing timing) {
        this(name, timing, UNTIL_STOPPED);
    }

    FencingRig(String name, Timing timing, Work work) {
        this.timing = timing;
        this.acts = ActLog.in(Path.of("target", "it-acts").toAbsolutePath()
                .resolve(name + "-" + System.currentTimeMillis()));
        this.cluster = new LeaseCluster(name, NatsServer.start(), work.shell(acts));
    }

    /** A service in leader mode with the rig's timings, NATS through its own proxy; not yet ready. */
    ServiceProcess serve(String name) {
        return serve(name, Map.of());
    }

    /** As {@link #serve(String)}, {@code extra} adding or overriding keys. */
    ServiceProcess serve(String name, Map<String, String> extra) {
        TcpProxy proxy = TcpProxy.to(cluster.nats.port());
        Map<String, String> config = new LinkedHashMap<>(timing.config());
        config.put("leasehold.nats.url", proxy.natsUrl());
        config.put("leasehold.drain.mode", "leader");
        config.put("leasehold.drain.concurrency", "1");
        // One machine, one clock: a new JetStream lease store is moved past it after 1 s, not the default 10 s.
        config.put("leasehold.claim.max-skew", "1s");
        config.putAll(extra);
        ServiceProcess p = cluster.start(name, config);
        proxies.put(p, proxy);
        return p;
    }

    TcpProxy proxyOf(ServiceProcess p) {
        return proxies.get(p);
    }

    /** A proxy to the rig's NATS for a command, closed with the rig. */
    TcpProxy proxy() {
        TcpProxy proxy = TcpProxy.to(cluster.nats.port());
        commandProxies.add(proxy);
        return proxy;
    }

    /** What a {@code lease exec} needs to share the services' lease and floor: NATS (direct), bucket, timings, spool. */
    Map<String, String> commandConfig() {
        Map<String, String> config = new LinkedHashMap<>(timing.config());
        config.put("leasehold.nats.url", cluster.nats.url());
        config.put("leasehold.lease.bucket", cluster.bucket);
        config.put("leasehold.spool.dir", cluster.spool.spoolDir().toString());
        return config;
    }

    /**
     * {@code lease exec -- sh -c '<term><acting>'} in {@code cwd} (null: the test's), its CMD acting as
     * {@code name/<pid>}; {@code acting} is {@link ActLog#loop} or {@link ActLog#acts} with that who.
     */
    LeaseCommandProcess exec(String name, Path cwd, Map<String, String> config, Map<String, String> env, String term,
            String acting) {
        Path pid = acts.file().resolveSibling(name + "-" + System.nanoTime() + ".pid");
        commandPids.add(pid);
        // CMD runs in a session of its own: its pid is the group to kill if the test ends first.
        String script = "echo $$ > '" + pid + "'; " + term + acting;
        LeaseCommandProcess p = LeaseCommandProcess.startIn(cwd, name, config, env, "exec", "--", "sh", "-c", script);
        commands.add(p);
        return p;
    }

    /** The who of a command's acts, for {@link ActLog#loop} and {@link ActLog#acts}. */
    static String who(String name) {
        return name + "/$$";
    }

    /** Enqueues items (as any program would) until at least {@code n} are pending. */
    void keepPending(int n) {
        while (cluster.spool.names("pending").size() < n) {
            items++;
            cluster.spool.enqueue("item-" + items, "item " + items);
        }
    }

    /** Waits for an act (not a take's mark) whose epoch passes {@code epoch}; answers the first such act. */
    Act awaitActUnder(String what, LongPredicate epoch) {
        return awaitAct(what, a -> epoch.test(a.epoch()));
    }

    /** Waits for an act (not a take's mark) that passes {@code which}; answers the first such act. */
    Act awaitAct(String what, Predicate<Act> which) {
        Act[] first = new Act[1];
        Await.until(what, WITHIN, () -> {
            first[0] = acts.read().stream().filter(a -> !a.who().startsWith(ActLog.TAKE) && which.test(a))
                    .min(Comparator.comparingLong(Act::atMillis)).orElse(null);
            return first[0] != null;
        });
        return first[0];
    }

    /** The acts of a command's CMD ({@link #who}), in file order. */
    List<Act> actsOf(String command) {
        return acts.read().stream().filter(a -> a.who().startsWith(command + "/")).toList();
    }

    /** Waits until {@code p} says it holds the lease at an epoch above {@code above}. */
    static Lease awaitHeld(ServiceProcess p, long above) {
        return Await.value(p.name() + " holds the lease above epoch " + above, WITHIN, () -> LeaseCluster.lease(p),
                l -> l != null && l.mode().equals("held") && l.epoch() > above);
    }

    /**
     * Waits until {@code p} holds the lease above epoch {@code above}, and marks the moment in the act
     * log ({@link ActLog#markTake}): no act of an earlier epoch may come after it.
     */
    Lease awaitTaken(ServiceProcess p, long above) {
        Lease taken = awaitHeld(p, above);
        acts.markTake(taken.epoch(), ActLog.nowMillis(), p.name());
        return taken;
    }

    /** The renewedAt of a holder's /lease, or null when it does not answer. */
    static String renewedAt(ServiceProcess holder) {
        Lease l = LeaseCluster.lease(holder);
        return l == null ? null : renewedAt(l);
    }

    /** The renewedAt of a /lease answer, or null when it names none. */
    static String renewedAt(Lease l) {
        try {
            return JSON.readTree(l.raw()).path("renewedAt").asText(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns right after {@code holder} renewed the lease (as its /lease shows), so a fault starts a period. */
    static void awaitRenewal(ServiceProcess holder) {
        String before = renewedAt(holder);
        Await.until(holder.name() + " renews the lease", WITHIN, () -> {
            if (!holder.isAlive()) {
                throw new AssertionError(holder + " lost the lease before any fault (exit " + holder.awaitExit(WITHIN)
                        + "): it did not renew in time on its own:\n" + holder.logText());
            }
            String now = renewedAt(holder);
            return now != null && !now.equals(before);
        });
    }

    /**
     * Waits until nothing has acted under an epoch up to {@code old} for a while (its actors stopped),
     * then asserts that every act so far is fenced; answers the fencing. An epoch that goes on acting
     * past {@link #WITHIN} fails with the fencing's account of it.
     */
    Fencing settledFencing(String context, long old) {
        try {
            awaitQuiet(old);
        } catch (AssertionError stillActing) {
            acts.fencing().assertFenced(context);
            throw new AssertionError(context + ": " + stillActing.getMessage() + "; " + acts.fencing(), stillActing);
        }
        return acts.fencing().assertFenced(context);
    }

    /** Waits until nothing has acted under an epoch up to {@code old} for a while: its actors stopped. */
    void awaitQuiet(long old) {
        Await.until("nothing acts under epoch " + old + " or below any more", WITHIN,
                () -> ActLog.nowMillis() - lastAct(old) >= QUIET.toMillis());
    }

    private long lastAct(long upToEpoch) {
        return acts.read().stream().filter(a -> a.epoch() <= upToEpoch).mapToLong(Act::atMillis).max().orElse(0);
    }

    /**
     * SIGSTOP to a service and to the process groups of its attempts still running, as when the
     * machine or container it runs in is paused: nothing of it acts until it is resumed or killed.
     */
    void freezeWithChildren(ServiceProcess p) {
        p.freeze();
        for (Run attempt : cluster.spool.running()) {
            if (attempt.instance().equals(p.name())) {
                ServiceProcess.signalGroup("STOP", attempt.pid());
            }
        }
    }

    /**
     * What every process of the rig said about the lease (its logger's lines, warnings and errors of
     * services; a command's stderr): the account a failed premise carries, so a run that lost its
     * holder on its own says who took what, and when.
     */
    String story() {
        StringBuilder story = new StringBuilder();
        for (ServiceProcess p : proxies.keySet()) {
            story.append("\n--- ").append(p.name()).append(" (").append(p.logFile()).append(")\n");
            p.logText().lines().filter(FencingRig::tellsOfTheLease).forEach(l -> story.append(l).append('\n'));
        }
        for (LeaseCommandProcess c : commands) {
            story.append("\n--- ").append(c).append(" (stderr)\n").append(c.stderr());
        }
        return story.toString();
    }

    private static boolean tellsOfTheLease(String line) {
        return line.contains("[io.leasehold.lease") || line.contains(" WARN ") || line.contains(" ERROR ");
    }

    /** Prints every handover of the act log and the smallest margin: the figures of a scenario. */
    void report(String scenario) {
        Fencing f = acts.fencing();
        System.out.printf("%s (%s): %d epochs, smallest margin %s; %s%n", scenario, timing, f.spans().size(),
                f.minMarginMillis().isPresent() ? f.minMarginMillis().getAsLong() + " ms" : "none", f);
    }

    @Override
    public void close() {
        commands.forEach(LeaseCommandProcess::close);
        for (Path pid : commandPids) {
            try {
                if (Files.exists(pid)) {
                    long group = Long.parseLong(Files.readString(pid).strip());
                    if (!ServiceProcess.hasEnded(group)) {
                        ServiceProcess.killGroup(group);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        cluster.close();
        proxies.values().forEach(TcpProxy::close);
        commandProxies.forEach(TcpProxy::close);
    }
}
