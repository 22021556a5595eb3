package io.leasehold.deploy;

import static io.leasehold.deploy.Manifests.at;
import static io.leasehold.deploy.Manifests.list;
import static io.leasehold.deploy.Manifests.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.LeaseholdConfig;
import io.leasehold.deploy.Instances.Instance;
import io.leasehold.deploy.Manifests.Container;
import io.leasehold.deploy.Manifests.Doc;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** deployments/kubernetes: several replicas on one ReadWriteMany spool, NATS from a Secret, handler from a ConfigMap. */
class KubernetesManifestsTest {

    private final List<Doc> docs = Manifests.folder(Manifests.KUBERNETES);

    @Test
    void severalReplicasShareOneReadWriteManySpool() {
        Doc deployment = Manifests.only(docs, "Deployment", "leasehold");
        Number replicas = (Number) at(deployment.body(), "spec", "replicas");
        assertTrue(replicas != null && replicas.intValue() >= 2, deployment + " replicas: " + replicas);
        assertSpoolIsSharedClaim(Manifests.KUBERNETES, docs);
    }

    /** The volume mounted at leasehold.spool.dir is a PersistentVolumeClaim of the folder, ReadWriteMany. */
    static void assertSpoolIsSharedClaim(Path dir, List<Doc> docs) {
        List<Container> containers = Manifests.containers(dir);
        List<Instance> instances = Instances.kubernetes(dir);
        assertEquals(containers.size(), instances.size());
        assertTrue(!containers.isEmpty(), dir + " runs no container");
        for (int n = 0; n < containers.size(); n++) {
            Container c = containers.get(n);
            String spool = ManifestsTest.injected(instances.get(n)).spool().dir();
            String volume = null;
            for (Object m : list(c.spec().get("volumeMounts"), c + " volumeMounts")) {
                Map<String, Object> mount = map(m, c + " volumeMount");
                if (spool.equals(mount.get("mountPath"))) {
                    volume = String.valueOf(mount.get("name"));
                }
            }
            assertNotNull(volume, c + " mounts nothing at the spool " + spool);
            String claim = null;
            for (Object v : list(c.podSpec().get("volumes"), c + " volumes")) {
                Map<String, Object> declared = map(v, c + " volume");
                if (volume.equals(declared.get("name"))) {
                    claim = String.valueOf(at(declared, "persistentVolumeClaim", "claimName"));
                }
            }
            assertNotNull(claim, c + ": volume " + volume + " is no PersistentVolumeClaim");
            Doc pvc = Manifests.only(docs, "PersistentVolumeClaim", claim);
            assertEquals(List.of("ReadWriteMany"), at(pvc.body(), "spec", "accessModes"),
                    pvc + ": every instance must mount the same spool read-write");
        }
    }

    @Test
    void theNatsConnectionComesFromTheSecret() {
        Container c = Manifests.containers(Manifests.KUBERNETES).get(0);
        Doc secret = Manifests.only(docs, "Secret", "leasehold-nats");
        for (Object entry : list(c.spec().get("env"), c + " env")) {
            Map<String, Object> e = map(entry, c + " env entry");
            String name = String.valueOf(e.get("name"));
            if (name.startsWith("LEASEHOLD_NATS_")) {
                Object ref = at(e, "valueFrom", "secretKeyRef");
                assertNotNull(ref, c + ": " + name + " must come from a Secret, not a plain value");
                assertEquals(secret.name(), at(ref, "name"), c + " " + name);
                assertNotNull(at(secret.body(), "stringData", String.valueOf(at(ref, "key"))), secret + " key of " + name);
            }
        }
        LeaseholdConfig config = Instances.kubernetes(Manifests.KUBERNETES).get(0).config();
        assertEquals(at(secret.body(), "stringData", "url"), config.nats().url().orElse(null));
        assertEquals(at(secret.body(), "stringData", "user"), config.nats().user().orElse(null));
        assertTrue(config.nats().password().isPresent(), "the password reaches leasehold.nats.password");
    }

    @Test
    void theHandlerIsConfiguredByTheConfigMap() {
        Doc configMap = Manifests.only(docs, "ConfigMap", "leasehold-handler");
        LeaseholdConfig config = Instances.kubernetes(Manifests.KUBERNETES).get(0).config();
        assertEquals(at(configMap.body(), "data", "LEASEHOLD_HANDLER"), config.handler().name());
        assertEquals(at(configMap.body(), "data", "LEASEHOLD_HANDLER_EXEC_COMMAND"), config.handler().exec().command().orElse(null));
        assertEquals(Integer.parseInt(String.valueOf(at(configMap.body(), "data", "LEASEHOLD_DRAIN_CONCURRENCY"))),
                config.drain().concurrency());
    }

    @Test
    void theServiceSelectsThePods() {
        Doc service = Manifests.only(docs, "Service", "leasehold");
        Doc deployment = Manifests.only(docs, "Deployment", "leasehold");
        Map<String, Object> selector = map(at(service.body(), "spec", "selector"), service + " selector");
        Map<String, Object> labels = map(at(deployment.body(), "spec", "template", "metadata", "labels"), "pod labels");
        assertTrue(labels.entrySet().containsAll(selector.entrySet()), service + " selects " + selector + ", pods have " + labels);
        assertEquals(at(deployment.body(), "spec", "selector", "matchLabels"), selector, "Deployment and Service select alike");
    }
}
