package io.leasehold.deploy;

import static io.leasehold.deploy.Manifests.list;
import static io.leasehold.deploy.Manifests.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.LeaseholdConfig;
import io.leasehold.deploy.Instances.Instance;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * deployments/compose.yaml: NATS with JetStream and two instances on one named spool volume; under the
 * profile jetstream two more on the JetStream spool, with no volume at all.
 */
class ComposeManifestTest {

    private final Map<String, Object> compose = Manifests.load(Manifests.COMPOSE).get(0).body();
    private final Map<String, Object> services = map(compose.get("services"), "services");

    private Map<String, Object> service(String name) {
        return map(services.get(name), "service " + name);
    }

    private Map<String, Object> service(Instance i) {
        return service(i.where().substring(i.where().lastIndexOf(' ') + 1));
    }

    private static List<String> profiles(Map<String, Object> service) {
        return list(service.getOrDefault("profiles", List.of()), "profiles").stream().map(String::valueOf).toList();
    }

    /** The instances started with {@code profiles} given (none: those a plain {@code up} starts). */
    private List<Instance> fleet(String... profiles) {
        return Instances.compose().stream().filter(i -> profiles(service(i)).equals(List.of(profiles))).toList();
    }

    private static List<String> hostPorts(Map<String, Object> service, String what) {
        return list(service.getOrDefault("ports", List.of()), what + " ports").stream()
                .map(p -> String.valueOf(p).split(":")[0]).toList();
    }

    /** The sources (volume names or host paths) of what {@code service} mounts at {@code path}. */
    private static TreeSet<String> volumesAt(Map<String, Object> service, String path, String what) {
        TreeSet<String> sources = new TreeSet<>();
        for (Object v : list(service.getOrDefault("volumes", List.of()), what + " volumes")) {
            String[] parts = String.valueOf(v).split(":");
            if (parts.length > 1 && parts[1].equals(path)) {
                sources.add(parts[0]);
            }
        }
        return sources;
    }

    @Test
    void natsRunsWithJetStreamAndTheInstancesReachIt() {
        Map<String, Object> nats = service("nats");
        assertEquals("nats:2.10", nats.get("image"));
        assertEquals(List.of(), profiles(nats), "both pairs need NATS, whatever the profile");
        for (Instance i : Instances.compose()) {
            URI url = URI.create(i.config().nats().url().orElseThrow(() -> new AssertionError(i + " has no NATS url")));
            assertEquals("nats", url.getHost(), i + ": " + url + " names no NATS service");
            assertEquals(4222, url.getPort(), i + " NATS port");
        }
        assertTrue(list(nats.get("command"), "nats command").contains("-js"),
                "the controller lease and the JetStream spool need JetStream");
    }

    @Test
    void natsKeepsItsJetStreamStoreOnANamedVolume() {
        Map<String, Object> nats = service("nats");
        List<Object> command = list(nats.get("command"), "nats command");
        int sd = command.indexOf("-sd");
        assertTrue(sd >= 0 && sd + 1 < command.size(), "nats is started with no -sd <store dir>: " + command);
        String store = String.valueOf(command.get(sd + 1));
        TreeSet<String> volumes = volumesAt(nats, store, "nats");
        assertEquals(1, volumes.size(), "the store " + store + " must be on one volume: " + volumes);
        // The JetStream pair's items live there: a container's own layer would lose them with the container.
        assertTrue(map(compose.get("volumes"), "volumes").containsKey(volumes.first()), volumes + " is no named volume");
    }

    @Test
    void twoInstancesShareOneNamedSpoolVolumeOnTheirOwnHostPorts() {
        List<Instance> instances = fleet();
        assertEquals(2, instances.size(), instances.toString());
        List<String> hostPorts = new ArrayList<>();
        TreeSet<String> spoolVolumes = new TreeSet<>();
        for (Instance i : instances) {
            Map<String, Object> service = service(i);
            assertEquals("directory", i.config().spool().kind(), i + " spool kind");
            spoolVolumes.addAll(volumesAt(service, i.config().spool().dir(), i.toString()));
            hostPorts.addAll(hostPorts(service, i.toString()));
            assertTrue(Files.isRegularFile(Manifests.ROOT.resolve(String.valueOf(Manifests.at(service, "build", "context")))
                    .resolve(String.valueOf(Manifests.at(service, "build", "dockerfile")))), i + " build context");
        }
        assertEquals(1, spoolVolumes.size(), "both instances must mount the same volume as the spool: " + spoolVolumes);
        assertTrue(map(compose.get("volumes"), "volumes").containsKey(spoolVolumes.first()),
                spoolVolumes.first() + " is no named volume (a host path or anonymous volume per instance would not be shared)");
        assertEquals(List.of("8081", "8082"), hostPorts);
    }

    @Test
    void theJetStreamProfileRunsTwoInstancesOnTheJetStreamSpoolWithNoVolume() {
        List<Instance> instances = fleet("jetstream");
        assertEquals(2, instances.size(), instances.toString());
        String directoryLease = fleet().get(0).config().lease().bucket();
        List<String> hostPorts = new ArrayList<>();
        for (Instance i : instances) {
            LeaseholdConfig config = i.config();
            assertEquals("jetstream", config.spool().kind(), i + " spool kind");
            assertEquals(List.of(), i.mounts(), i + ": the JetStream spool shares nothing but NATS, no volume");
            // The profile adds to the directory pair: one controller lease for both would make them one fleet.
            assertNotEquals(directoryLease, config.lease().bucket(), i + " shares the directory pair's lease");
            hostPorts.addAll(hostPorts(service(i), i.toString()));
        }
        assertEquals(List.of("8091", "8092"), hostPorts);
        Set<String> everyPort = new HashSet<>();
        services.forEach((name, s) -> hostPorts(map(s, name), name)
                .forEach(p -> assertTrue(everyPort.add(p), "host port " + p + " taken twice, so both pairs cannot run")));
    }
}
