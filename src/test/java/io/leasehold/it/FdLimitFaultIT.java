package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Census;
import io.leasehold.testing.FaultRounds;
import io.leasehold.testing.OpenDescriptors;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Fault suite, file descriptors: a service allowed 128 descriptors (about 20 in use at rest) is sent
 * more concurrent uploads than it has descriptors, each connection held open until its answer is read.
 * It caps its connections from its limit (io.leasehold.config.DescriptorBudget), so the clients beyond the
 * cap are cut off. Vert.x refuses them only once accepted, so a burst can still take every descriptor for
 * a moment (how many were open at most is printed, not asserted: it depends on how soon the event loops
 * run); whatever it cannot serve is answered with an error or cut off, every item answered 201 is in the
 * spool, none is lost or run twice, and once the clients are gone it has its descriptors back, enqueues
 * and drains again.
 */
class FdLimitFaultIT {

    private static final int CLIENTS = 200;
    private static final int PAYLOAD = 2048;
    private static final int LIMIT = 128;
    /** The connection cap the service derives: (128 - 64 - 8 × SoloInstance's drain concurrency of 2) / 3. */
    private static final int CAP = 16;
    /** Beside the service's own at rest: the test's keep-alive connections for its checks. */
    private static final int CHECKS = 4;
    /** The launcher's own command, run by a shell that lowers both limits first ({@code exec}: same pid). */
    private static final List<String> FEW_DESCRIPTORS = List.of("sh", "-c", "ulimit -n " + LIMIT + "; exec \"$@\"", "sh");

    private final List<Socket> clients = new ArrayList<>();
    @AutoClose
    private final SoloInstance solo = SoloInstance.create("fd-limit", "sleep 0.1");
    private ServiceProcess service;

    @AfterEach
    void closeClients() {
        RawClients.closeAll(clients);
    }

    @Test
    void aFloodBeyondItsDescriptorsIsCutOffAtTheCapLosesNoAcceptedItemAndRecovers() {
        SharedSpool spool = solo.spool;
        service = solo.start(FEW_DESCRIPTORS);
        assertEquals(LIMIT + " " + LIMIT, openFilesLimit(service.pid()), "soft and hard limit of the service");
        assertEquals(CAP, service.metric("vertx_http_connections_max", ""), "the connection cap derived from the limit");
        // The sample of this line in docs/configuration.md (Descriptor limit) is this very configuration's.
        assertTrue(service.logText().contains("open files: limit 128; at most 16 connections"
                + " (quarkus.http.limits.max-connections), 16 uploads at once (leasehold.item.max-uploads), accept"
                + " backlog 4 (quarkus.http.accept-backlog); each derived from the limit unless set"), "the start says"
                + " what limit it runs with and what it derived: " + service.logFile());
        // One jar kept open (an uber-jar; none in a native binary): loading a class never needs a descriptor.
        assertTrue(jarsOpen().size() <= 1, "jars the service has open: " + jarsOpen());

        int atStart = OpenDescriptors.count(service.pid());
        List<String> accepted = new ArrayList<>();
        List<String> notAccepted = new ArrayList<>();
        int rounds = FaultRounds.count();
        for (int round = 1; round <= rounds; round++) {
            long started = System.nanoTime();
            String r = "r" + round;
            List<String> flood = IntStream.rangeClosed(1, CLIENTS).mapToObj(n -> r + "-flood-" + n).toList();
            int exhaustedBefore = timesExhausted();
            double rejectedBefore = service.metric("vertx_http_connections_rejected_total", "");
            int atRest = OpenDescriptors.count(service.pid());
            int unsent;
            Map<String, String> codes;
            int most;
            try (OpenDescriptors open = OpenDescriptors.sample(service.pid())) {
                // Slow uploads: every body half sent before any is finished, so all stream at once.
                unsent = (int) flood.stream().filter(id -> !startUpload(id)).count();
                unsent += (int) clients.stream().filter(s -> !finishUpload(s)).count();
                codes = readAnswers(flood);
                most = open.most();
            }
            Map<String, Integer> answers = new TreeMap<>();
            codes.forEach((id, code) -> {
                answers.merge(code, 1, Integer::sum);
                (code.equals("201") ? accepted : notAccepted).add(id);
            });
            assertTrue(List.of("201", "408", "503", "none").containsAll(answers.keySet()),
                    "201, 408 for a body too slow, 503 for descriptors run out (a passing exhaustion, never 500), or cut off: " + answers);
            int exhausted = timesExhausted() - exhaustedBefore;

            List<String> after = IntStream.rangeClosed(1, 10).mapToObj(n -> r + "-after-" + n).toList();
            try {
                Await.until("live and ready after the flood", Duration.ofSeconds(30),
                        () -> service.status("/q/health/live") == 200 && service.status("/q/health/ready") == 200);
                after.forEach(id -> Answers.assertEnqueued(service, id, "payload of " + id));
            } catch (AssertionError | UncheckedIOException e) {
                throw new AssertionError("the service did not recover after the flood: " + stuck(), e);
            }
            accepted.addAll(after);
            double rejected = service.metric("vertx_http_connections_rejected_total", "") - rejectedBefore;
            assertTrue(rejected > 0, "the clients beyond the cap of " + CAP + " connections were cut off");
            Await.until(r + ": drained", Duration.ofSeconds(120),
                    () -> spool.names("pending").isEmpty() && spool.names("claimed").isEmpty());
            Census census = Census.awaitEachOnce(spool.spoolDir(), accepted, Duration.ofSeconds(20));
            assertEquals(accepted.stream().sorted().toList(), census.in("done").stream()
                    .filter(accepted::contains).toList(), "every item answered 201 is done");
            List<String> unanswered = notAccepted.stream().filter(id -> !census.states(id).isEmpty()).toList();
            assertEquals(List.of(), notAccepted.stream().filter(id -> census.states(id).size() > 1).toList(),
                    "an item not answered 201 is in one state or none");
            assertEquals(Map.of(), spool.notRunOnce(accepted), "no item run twice or never");
            // No id stuck: one that is in no folder is free, so the retry its 503 asked for enqueues it.
            List<String> stuckIds = new ArrayList<>();
            for (String id : notAccepted) {
                if (census.states(id).isEmpty()) {
                    int status = service.enqueue(id, "retried " + id).statusCode();
                    if (status == 201) {
                        accepted.add(id);
                    } else {
                        stuckIds.add(id + " " + status);
                    }
                }
            }
            assertEquals(List.of(), stuckIds, "ids in no folder whose retry was refused (known, yet no item)");
            Await.until("descriptors back to " + atStart + " at start (+ " + CHECKS + "), none left open by the flood",
                    Duration.ofSeconds(30), () -> OpenDescriptors.count(service.pid()) <= atStart + CHECKS);
            assertTrue(jarsOpen().size() <= 1, "jars the service has open: " + jarsOpen());
            System.out.printf("FdLimitFaultIT round %d/%d: %d uploads at once under ulimit -n %d (%d not even"
                    + " sent): answers %s; %.0f connections refused beyond the cap of %d; descriptors %d at rest, at"
                    + " most %d (%d free), %d log lines of Too many open files; %d not answered 201 yet in the spool;"
                    + " %d accepted in all, each done once; %.1f s%n", round, rounds, CLIENTS, LIMIT, unsent, answers,
                    rejected, CAP, atRest, most, LIMIT - most, exhausted, unanswered.size(), accepted.size(),
                    (System.nanoTime() - started) / 1e9);
        }
    }

    /**
     * Each answer's status code ("none" when cut off or silent for 20 s), read at once on every
     * connection; each is closed as soon as it was answered, so connections the kernel queued get a turn.
     */
    private Map<String, String> readAnswers(List<String> ids) {
        ExecutorService readers = Executors.newFixedThreadPool(ids.size());
        try {
            List<Future<String>> codes = new ArrayList<>();
            for (Socket s : clients) {
                codes.add(readers.submit(() -> {
                    String status = RawClients.statusLine(inputOf(s));
                    RawClients.closeAll(List.of(s));
                    return status.isEmpty() ? "none" : status.split(" ")[1];
                }));
            }
            Map<String, String> byId = new TreeMap<>();
            for (int i = 0; i < ids.size(); i++) {
                byId.put(ids.get(i), codes.get(i).get(60, TimeUnit.SECONDS));
            }
            return byId;
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new AssertionError("reading the answers failed", e);
        } finally {
            readers.shutdownNow();
            RawClients.closeAll(clients);
            clients.clear();
        }
    }

    /** Where the service's threads wait, when it stopped answering. */
    private String stuck() {
        String dump = service.threadDump();
        int inJar = dump.split("JarFileReference.asyncLoadAcquiredJarFile", -1).length - 1;
        return inJar == 0 ? "see the thread dump in " + service.logFile() : inJar + " threads wait forever in Quarkus'"
                + " JarFileReference.asyncLoadAcquiredJarFile: a class was first needed while no descriptor was free,"
                + " the jar could not be reopened, and the runner class loader never completes that load (thread dump"
                + " in " + service.logFile() + ")";
    }

    /** Opens a connection and sends the head and half the body of an upload; false when that could not be done. */
    private boolean startUpload(String id) {
        Socket s = new Socket();
        clients.add(s);
        try {
            s.connect(new InetSocketAddress("127.0.0.1", service.port()), 5_000);
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(RawClients.postHead("/items?id=" + id, PAYLOAD));
            out.write("p".repeat(PAYLOAD / 2).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends the rest of the body; false when the connection was cut off already. */
    private static boolean finishUpload(Socket s) {
        try {
            OutputStream out = s.getOutputStream();
            out.write("p".repeat(PAYLOAD - PAYLOAD / 2).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static InputStream inputOf(Socket s) {
        try {
            return s.getInputStream();
        } catch (IOException e) {
            return InputStream.nullInputStream(); // never connected: no answer
        }
    }

    private List<String> jarsOpen() {
        return OpenDescriptors.targets(service.pid()).stream().filter(t -> t.endsWith(".jar")).toList();
    }

    private int timesExhausted() {
        return service.logText().split("Too many open files", -1).length - 1;
    }

    /** Soft and hard "Max open files" of a process, from /proc/<pid>/limits. */
    private static String openFilesLimit(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                    return f[0] + " " + f[1];
                }
            }
            throw new AssertionError("no Max open files in /proc/" + pid + "/limits");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
