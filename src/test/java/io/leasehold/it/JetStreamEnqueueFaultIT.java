package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.Await;
import io.leasehold.testing.Instances;
import io.leasehold.testing.NatsServer;
import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault suite, JetStream enqueue: NATS stops answering (SIGSTOP) while a POST streams a payload of
 * several object-store chunks, dies frozen (SIGKILL) and is started again on its store. The POST fails,
 * as it must; then the id is an item or free: the retry its 503 asked for answers 201 (or 409 with the
 * item there), never 409 for an id that GET answers 404 — the hole a reservation whose take-back failed
 * while NATS was down left for half of tmp-max-age.
 */
class JetStreamEnqueueFaultIT {

    private static final int PAYLOAD = 1 << 20;

    @RegisterExtension
    final Instances instances = new Instances();
    @AutoClose
    private final NatsServer nats = NatsServer.start();

    @Test
    void anUploadCutByAStalledNatsLeavesItsIdFreeForTheRetryOnceNatsIsBack() throws Exception {
        SharedSpool log = instances.on(SharedSpool.create("js-enqueue-fault", "true"));
        ServiceProcess service = ServiceProcess.start("js-enqueue", log.config(Map.of(
                "leasehold.spool.kind", "jetstream",
                "leasehold.spool.jetstream.bucket", "enqueue-fault",
                "leasehold.nats.url", nats.url(),
                "leasehold.drain.poll-interval", "1s")), log.env("js-enqueue"));
        instances.add(service);
        service.awaitReady(Duration.ofSeconds(90));

        String id = "cut-off";
        String answer;
        try (Socket s = new Socket("127.0.0.1", service.port())) {
            s.setSoTimeout(120_000);
            OutputStream out = s.getOutputStream();
            out.write(RawClients.postHead("/items?id=" + id, PAYLOAD));
            out.write(new byte[PAYLOAD / 4]);
            out.flush();
            // Mid-upload: the reservation made and the payload's first chunk stored (a chunk is 128 KiB).
            try (io.nats.client.Connection look = io.nats.client.Nats.connect(nats.url())) {
                Await.until("the first chunk stored", Duration.ofSeconds(20), () -> chunksStored(look) > 0);
            }
            nats.freeze();
            out.write(new byte[PAYLOAD - PAYLOAD / 4]);
            out.flush();
            answer = RawClients.statusLine(s.getInputStream());
        }
        assertTrue(answer.contains(" 503 "), "the upload fails while NATS does not answer: " + answer);
        nats.kill(); // frozen, then gone: what was in flight is lost
        nats.restart();
        Await.until("ready again on the restarted server", Duration.ofSeconds(60),
                () -> service.status("/q/health/ready") == 200);

        List<String> probes = new ArrayList<>();
        HttpResponse<String> retry = service.request("/items?id=" + id, b -> b.POST(HttpRequest.BodyPublishers
                .ofByteArray(new byte[PAYLOAD])).header("Content-Type", "application/octet-stream"));
        int get = service.status("/items/" + id);
        probes.add("POST " + retry.statusCode() + " then GET " + get);
        assertTrue(retry.statusCode() == 201 || retry.statusCode() == 409 && get == 200,
                "the retry enqueues it, or it is there already: " + probes + " " + retry.body());
        assertEquals(200, get, "the item is there: " + probes);
        Await.until("the item done", Duration.ofSeconds(60), () -> service.get("/items/" + id).contains("\"done\""));
        System.out.printf("JetStreamEnqueueFaultIT: the upload cut by a frozen NATS answered %s; after a restart on"
                + " its store: %s%n", answer, probes);
    }

    /** Messages in the payload bucket's stream; 0 while it is not there yet. */
    private static long chunksStored(io.nats.client.Connection nats) {
        try {
            return nats.jetStreamManagement().getStreamInfo("OBJ_enqueue-fault-payloads").getStreamState().getMsgCount();
        } catch (IOException | io.nats.client.JetStreamApiException e) {
            return 0;
        }
    }
}
