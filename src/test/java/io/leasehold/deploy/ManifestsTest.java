package io.leasehold.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.LeaseholdConfig;
import io.leasehold.deploy.Instances.Instance;
import io.leasehold.deploy.Manifests.Doc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every manifest under deployments/ names config keys, ports and paths that the application really has. */
class ManifestsTest {

    /** Quarkus keys the deployments and Dockerfiles set (the native image's entrypoint binds all interfaces). */
    static final Set<String> QUARKUS_KEYS = Set.of("quarkus.http.host");
    /** Not config keys: read by the base image's run-java.sh, or by the JVM itself. */
    static final Set<String> IMAGE_VARIABLES = Set.of("JAVA_OPTS_APPEND", "JAVA_APP_JAR", "LANGUAGE");
    static final Set<String> JVM_PROPERTIES = Set.of("java.util.logging.manager");

    private static final Set<String> KEYS = AppFacts.configKeys();

    @Test
    void reflectionFindsNestedAndParentNamedKeys() {
        // The derivation itself: a nested group, a @WithParentName key and a camel-case method.
        assertTrue(KEYS.contains("leasehold.nats.tls.truststore-password"), KEYS.toString());
        assertTrue(KEYS.contains("leasehold.handler"), KEYS.toString());
        assertFalse(KEYS.contains("leasehold.handler.name"), KEYS.toString());
        assertTrue(KEYS.contains("leasehold.drain.shutdown-timeout"), KEYS.toString());
        assertEquals(Set.of("K_SINK", "NATS_URL"), AppFacts.variablesInDefaults());
    }

    @Test
    void everyFileParsesAndEveryKubernetesDocumentIsNamed() {
        List<Path> files = Manifests.files();
        assertTrue(files.contains(Manifests.COMPOSE), files.toString());
        for (Path file : files) {
            for (Doc d : Manifests.load(file)) {
                if (file.equals(Manifests.COMPOSE)) {
                    continue;
                }
                assertNotNull(d.body().get("apiVersion"), d + " has no apiVersion");
                assertFalse(d.kind().isEmpty(), d + " has no kind");
                assertTrue(d.kind().equals("Kustomization") || !d.name().isEmpty(), d + " has no metadata.name");
            }
        }
    }

    @Test
    void kustomizationsListEveryManifestOfTheirFolder() {
        for (Path dir : List.of(Manifests.KUBERNETES, Manifests.KNATIVE, Manifests.KNATIVE_JETSTREAM,
                Manifests.ROOT.resolve("monitoring"))) {
            Doc k = Manifests.only(Manifests.load(dir.resolve("kustomization.yaml")), "Kustomization", "");
            Set<String> listed = Manifests.list(k.body().get("resources"), k + " resources").stream()
                    .map(String::valueOf).collect(Collectors.toCollection(TreeSet::new));
            Set<String> present = Manifests.files().stream().filter(f -> f.getParent().equals(dir))
                    .map(f -> f.getFileName().toString()).filter(n -> !n.equals("kustomization.yaml"))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(present, listed, dir + "/kustomization.yaml");
        }
    }

    @Test
    void everyEnvironmentVariableAndPropertyIsAKeyOfTheApplication() {
        List<String> problems = new ArrayList<>();
        List<Instance> instances = Instances.all();
        assertTrue(instances.size() >= 4, "instances found: " + instances);
        for (Instance i : instances) {
            i.declared().keySet().forEach(name -> checkVariable(i.where(), name, problems));
            i.jvmProps().keySet().forEach(key -> checkProperty(i.where(), key, problems));
        }
        for (Path file : List.of(Dockerfile.JVM, Dockerfile.NATIVE)) {
            Dockerfile d = Dockerfile.read(file);
            d.env().keySet().forEach(name -> checkVariable(file.toString(), name, problems));
            Instances.systemProperties(d.env().get("JAVA_OPTS_APPEND")).keySet()
                    .forEach(key -> checkProperty(file.toString(), key, problems));
            Instances.systemProperties(String.join(" ", d.entrypoint())).keySet()
                    .forEach(key -> checkProperty(file.toString(), key, problems));
        }
        assertEquals(List.of(), problems);
    }

    private static void checkVariable(String where, String name, List<String> problems) {
        Set<String> known = new TreeSet<>(AppFacts.variablesInDefaults());
        known.addAll(IMAGE_VARIABLES);
        KEYS.forEach(k -> known.add(AppFacts.envName(k)));
        QUARKUS_KEYS.forEach(k -> known.add(AppFacts.envName(k)));
        if (!known.contains(name)) {
            problems.add(where + ": environment variable " + name + " is no config key of leasehold");
        }
    }

    private static void checkProperty(String where, String key, List<String> problems) {
        if (!KEYS.contains(key) && !QUARKUS_KEYS.contains(key) && !JVM_PROPERTIES.contains(key)) {
            problems.add(where + ": -D" + key + " is no config key of leasehold");
        }
    }

    @Test
    void everyInstanceStartsWithItsConfigurationAndMountsTheSpoolItDrains() {
        for (Instance i : Instances.all()) {
            LeaseholdConfig config = injected(i);
            if (config.spool().kind().equals("jetstream")) {
                assertTrue(config.nats().url().isPresent(), i + ": the JetStream spool needs leasehold.nats.url");
                continue; // its items live in NATS: nothing to mount
            }
            String spool = config.spool().dir();
            assertTrue(i.mounts().contains(spool), i + ": leasehold.spool.dir " + spool + " is none of the mounts "
                    + i.mounts() + "; the spool would live in the container and not be shared");
        }
    }

    /** Knative's SinkBinding injects K_SINK at run time; the other variables are all in the manifests. */
    static LeaseholdConfig injected(Instance i) {
        return i.where().startsWith(Manifests.KNATIVE.toString()) ? i.config(Map.of("K_SINK", "http://receiver.test"))
                : i.config();
    }

    @Test
    void containersListenOnTheHttpPortOfTheApplication() {
        int port = AppFacts.httpPort();
        for (Instance i : Instances.all()) {
            assertEquals(List.of(port), i.ports(), i + " container ports vs quarkus.http.port");
        }
        Doc service = Manifests.only(Manifests.folder(Manifests.KUBERNETES), "Service", "leasehold");
        Manifests.Container c = Manifests.containers(Manifests.KUBERNETES).get(0);
        for (Object p : Manifests.list(Manifests.at(service.body(), "spec", "ports"), service + " ports")) {
            Object target = Manifests.map(p, service + " port").get("targetPort");
            assertEquals(port, containerPort(c, target), service + " targetPort " + target);
        }
    }

    /** A probe or Service port: a number, or the name of one of the container's ports. */
    static int containerPort(Manifests.Container c, Object port) {
        if (port instanceof Number n) {
            return n.intValue();
        }
        for (Object p : Manifests.list(c.spec().get("ports"), c + " ports")) {
            Map<String, Object> named = Manifests.map(p, c + " port");
            if (String.valueOf(port).equals(named.get("name"))) {
                return ((Number) named.get("containerPort")).intValue();
            }
        }
        throw new AssertionError(c + " has no port named " + port);
    }

    @Test
    void probesAskTheHealthEndpointsOfTheApplication() {
        assertTrue(AppFacts.healthExtensionPresent(), "quarkus-smallrye-health is not on the classpath");
        String live = AppFacts.healthPath("liveness");
        String ready = AppFacts.healthPath("readiness");
        assertEquals("/q/health/live", live);
        assertEquals("/q/health/ready", ready);
        Map<String, String> expected = Map.of("livenessProbe", live, "startupProbe", live, "readinessProbe", ready);
        List<Manifests.Container> containers = new ArrayList<>(Manifests.containers(Manifests.KUBERNETES));
        containers.addAll(Manifests.containers(Manifests.KNATIVE));
        containers.addAll(Manifests.containers(Manifests.KNATIVE_JETSTREAM));
        for (Manifests.Container c : containers) {
            assertTrue(c.spec().containsKey("livenessProbe") && c.spec().containsKey("readinessProbe"), c + " probes");
            expected.forEach((probe, path) -> {
                Object get = Manifests.at(c.spec(), probe, "httpGet");
                if (get == null) {
                    return;
                }
                Map<String, Object> httpGet = Manifests.map(get, c + " " + probe);
                assertEquals(path, httpGet.get("path"), c + " " + probe);
                if (httpGet.containsKey("port")) {
                    assertEquals(AppFacts.httpPort(), containerPort(c, httpGet.get("port")), c + " " + probe + " port");
                }
            });
        }
    }

    /**
     * Past the shutdown timeout the service still hands claims back and releases the controller lease (a call
     * bounded by 2s, ControllerLease.RELEASE_LIMIT); 5s leave room for that and the HTTP server's stop.
     */
    static final Duration AFTER_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

    @Test
    void theGracePeriodCoversTheShutdownTimeoutAndTheHandBack() {
        for (Manifests.Container c : Manifests.containers(Manifests.KUBERNETES)) {
            Duration grace = Duration.ofSeconds(((Number) Manifests.map(c.podSpec(), c + " pod spec")
                    .getOrDefault("terminationGracePeriodSeconds", 30)).longValue());
            assertFitsShutdown(c.toString(), grace, shutdownOf(c.toString()));
        }
        for (Manifests.Container c : Stream.concat(Manifests.containers(Manifests.KNATIVE).stream(),
                Manifests.containers(Manifests.KNATIVE_JETSTREAM).stream()).toList()) {
            // Knative sets a revision's terminationGracePeriodSeconds to its timeoutSeconds.
            Object timeout = c.podSpec().get("timeoutSeconds");
            assertNotNull(timeout, c + " sets no timeoutSeconds");
            assertFitsShutdown(c.toString(), Duration.ofSeconds(((Number) timeout).longValue()), shutdownOf(c.toString()));
        }
        Map<String, Object> services = Manifests.map(Manifests.load(Manifests.COMPOSE).get(0).body().get("services"), "services");
        for (Instance i : Instances.compose()) {
            String name = i.where().substring(i.where().lastIndexOf(' ') + 1);
            Object stop = Manifests.map(services.get(name), name).get("stop_grace_period");
            assertNotNull(stop, i + " has no stop_grace_period; Docker's 10s default cuts the shutdown short");
            assertFitsShutdown(i.where(), AppFacts.duration(String.valueOf(stop)), i.config().drain().shutdownTimeout());
        }
    }

    private static Duration shutdownOf(String where) {
        Instance i = Instances.all().stream().filter(x -> x.where().equals(where)).findFirst().orElseThrow();
        return injected(i).drain().shutdownTimeout();
    }

    private static void assertFitsShutdown(String where, Duration grace, Duration shutdownTimeout) {
        assertTrue(grace.compareTo(shutdownTimeout.plus(AFTER_SHUTDOWN_TIMEOUT)) >= 0, where + ": a grace period of "
                + grace + " does not cover leasehold.drain.shutdown-timeout " + shutdownTimeout + " plus "
                + AFTER_SHUTDOWN_TIMEOUT + " for hand-back and lease release");
    }

    @Test
    void dockerfilesPutTheSpoolOnTheVolumeAndListenOnTheHttpPort() {
        for (Path file : List.of(Dockerfile.JVM, Dockerfile.NATIVE)) {
            Dockerfile d = Dockerfile.read(file);
            LeaseholdConfig config = AppFacts.effective(d.env(), Instances.systemProperties(String.join(" ", d.entrypoint())));
            assertEquals(List.of(config.spool().dir()), d.volumes(), file + ": VOLUME vs LEASEHOLD_SPOOL_DIR");
            assertEquals(List.of(AppFacts.httpPort()), d.exposed(), file + ": EXPOSE vs quarkus.http.port");
            assertNotNull(d.user(), file + " sets no USER");
            assertNotEquals("0", d.user(), file + " runs as root");
            assertNotEquals("root", d.user(), file + " runs as root");
        }
        // Setting JAVA_OPTS_APPEND replaces the image's: the image's own options must survive in it.
        List<String> imageOptions = List.of(Dockerfile.read(Dockerfile.JVM).env().get("JAVA_OPTS_APPEND").split("\\s+"));
        for (Instance i : Instances.all()) {
            String declared = i.declared().get("JAVA_OPTS_APPEND");
            if (declared != null) {
                assertTrue(List.of(declared.split("\\s+")).containsAll(imageOptions), i + " drops " + imageOptions);
            }
        }
    }

    @Test
    void everyManifestRunsTheImageAsItsNonRootUser() {
        String user = Dockerfile.read(Dockerfile.JVM).user();
        List<Manifests.Container> containers = new ArrayList<>(Manifests.containers(Manifests.KUBERNETES));
        containers.addAll(Manifests.containers(Manifests.KNATIVE));
        containers.addAll(Manifests.containers(Manifests.KNATIVE_JETSTREAM));
        for (Manifests.Container c : containers) {
            assertEquals("leasehold:latest", c.spec().get("image"), c + " image");
            Map<String, Object> security = Manifests.map(c.podSpec().get("securityContext"), c + " securityContext");
            assertEquals(Boolean.TRUE, security.get("runAsNonRoot"), c + " runAsNonRoot");
            assertEquals(user, String.valueOf(security.get("runAsUser")), c + " runAsUser vs USER of " + Dockerfile.JVM);
            assertEquals(Boolean.FALSE, Manifests.at(c.spec(), "securityContext", "allowPrivilegeEscalation"), c.toString());
            assertNotNull(Manifests.at(c.spec(), "resources", "requests"), c + " resources.requests");
            assertNotNull(Manifests.at(c.spec(), "resources", "limits", "memory"), c + " resources.limits.memory");
        }
        assertTrue(Files.isRegularFile(Dockerfile.JVM));
    }
}
