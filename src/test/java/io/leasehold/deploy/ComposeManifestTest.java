package io.leasehold.deploy;

import static io.leasehold.deploy.Manifests.list;
import static io.leasehold.deploy.Manifests.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.deploy.Instances.Instance;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** deployments/compose.yaml: NATS with JetStream and two instances on one named spool volume. */
class ComposeManifestTest {

    private final Map<String, Object> compose = Manifests.load(Manifests.COMPOSE).get(0).body();
    private final Map<String, Object> services = map(compose.get("services"), "services");

    @Test
    void natsRunsWithJetStreamAndTheInstancesReachIt() {
        Map<String, Object> nats = map(services.get("nats"), "service nats");
        assertEquals("nats:2.10", nats.get("image"));
        assertTrue(list(nats.get("command"), "nats command").contains("-js"), "the controller lease needs JetStream");
        for (Instance i : Instances.compose()) {
            URI url = URI.create(i.config().nats().url().orElseThrow(() -> new AssertionError(i + " has no NATS url")));
            assertTrue(services.containsKey(url.getHost()), i + ": " + url + " names no compose service");
            assertEquals(4222, url.getPort(), i + " NATS port");
        }
    }

    @Test
    void twoInstancesShareOneNamedSpoolVolumeOnTheirOwnHostPorts() {
        List<Instance> instances = Instances.compose();
        assertEquals(2, instances.size(), instances.toString());
        List<String> hostPorts = new ArrayList<>();
        TreeSet<String> spoolVolumes = new TreeSet<>();
        for (Instance i : instances) {
            String name = i.where().substring(i.where().lastIndexOf(' ') + 1);
            Map<String, Object> service = map(services.get(name), name);
            String spool = i.config().spool().dir();
            for (Object v : list(service.get("volumes"), name + " volumes")) {
                String[] parts = String.valueOf(v).split(":");
                if (parts[1].equals(spool)) {
                    spoolVolumes.add(parts[0]);
                }
            }
            for (Object p : list(service.get("ports"), name + " ports")) {
                hostPorts.add(String.valueOf(p).split(":")[0]);
            }
            assertTrue(Files.isRegularFile(Manifests.ROOT.resolve(String.valueOf(Manifests.at(service, "build", "context")))
                    .resolve(String.valueOf(Manifests.at(service, "build", "dockerfile")))), name + " build context");
        }
        assertEquals(1, spoolVolumes.size(), "both instances must mount the same volume as the spool: " + spoolVolumes);
        assertTrue(map(compose.get("volumes"), "volumes").containsKey(spoolVolumes.first()),
                spoolVolumes.first() + " is no named volume (a host path or anonymous volume per instance would not be shared)");
        assertEquals(List.of("8081", "8082"), hostPorts);
    }
}
