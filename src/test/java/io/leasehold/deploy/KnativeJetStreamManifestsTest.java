package io.leasehold.deploy;

import static io.leasehold.deploy.Manifests.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.LeaseholdConfig;
import io.leasehold.deploy.Instances.Instance;
import io.leasehold.deploy.Manifests.Doc;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** deployments/knative-jetstream: the Knative variant with the spool in NATS JetStream and no volume at all. */
class KnativeJetStreamManifestsTest {

    private final List<Doc> docs = Manifests.folder(Manifests.KNATIVE_JETSTREAM);
    private final Doc service = Manifests.only(docs, "Service", "leasehold");

    @Test
    void itNeedsNoVolumeSoNoneOfKnativesVolumeFeatureFlags() {
        assertTrue(docs.stream().noneMatch(d -> d.kind().equals("PersistentVolumeClaim")), docs.toString());
        Object pod = at(service.body(), "spec", "template", "spec");
        assertFalse(((Map<?, ?>) pod).containsKey("volumes"), service + " declares volumes");
        Instance instance = Instances.kubernetes(Manifests.KNATIVE_JETSTREAM).get(0);
        assertEquals(List.of(), instance.mounts(), instance + " mounts " + instance.mounts());
    }

    @Test
    void itStartsOnTheJetStreamSpoolWithNatsFromTheSecretAndDrainsOnlyInPasses() {
        Instance instance = Instances.kubernetes(Manifests.KNATIVE_JETSTREAM).get(0);
        LeaseholdConfig config = ManifestsTest.injected(instance); // checked as the service checks it at start
        assertEquals("jetstream", config.spool().kind());
        assertEquals("nats://nats.nats.svc.cluster.local:4222", config.nats().url().orElseThrow(),
                "the URL comes from the Secret of the folder");
        assertFalse(config.drain().auto(), "leasehold.drain.auto must be false: a PingSource drives the passes");
        assertEquals("http", config.handler().name());
        Manifests.only(docs, "PingSource", "leasehold-drain");
        Manifests.only(docs, "SinkBinding", "leasehold-handler");
    }
}
