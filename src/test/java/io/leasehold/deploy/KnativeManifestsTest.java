package io.leasehold.deploy;

import static io.leasehold.deploy.Manifests.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.LeaseholdConfig;
import io.leasehold.deploy.Instances.Instance;
import io.leasehold.deploy.Manifests.Doc;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** deployments/knative: scale to zero, a PingSource that POSTs /drain, a SinkBinding for the http handler. */
class KnativeManifestsTest {

    private final List<Doc> docs = Manifests.folder(Manifests.KNATIVE);
    private final Doc service = Manifests.only(docs, "Service", "leasehold");

    @Test
    void scalesToZeroAndClaimsOnlyDuringDrainPasses() {
        assertEquals("serving.knative.dev/v1", service.body().get("apiVersion"));
        assertEquals("0", at(service.body(), "spec", "template", "metadata", "annotations",
                "autoscaling.knative.dev/min-scale"), service + " min-scale");
        Instance instance = Instances.kubernetes(Manifests.KNATIVE).get(0);
        assertFalse(ManifestsTest.injected(instance).drain().auto(), "leasehold.drain.auto must be false: " + instance);
        KubernetesManifestsTest.assertSpoolIsSharedClaim(Manifests.KNATIVE, docs);
    }

    @Test
    void thePingSourcePostsADrainPassThatFitsItsMinuteAndTheRequestTimeout() {
        Doc ping = Manifests.only(docs, "PingSource", "leasehold-drain");
        assertEquals("sources.knative.dev/v1", ping.body().get("apiVersion"));
        assertRefersToTheService(ping, at(ping.body(), "spec", "sink", "ref"));
        URI uri = URI.create(String.valueOf(at(ping.body(), "spec", "sink", "uri")));
        assertFalse(uri.isAbsolute(), ping + ": a relative uri is resolved against sink.ref");
        // A PingSource delivers its event with POST.
        AppFacts.Endpoint endpoint = AppFacts.endpoints().stream().filter(e -> e.matches("POST", uri.getPath()))
                .findFirst().orElseThrow(() -> new AssertionError(ping + ": no POST " + uri.getPath()
                        + " in the application; it has " + AppFacts.endpoints()));
        Map<String, String> query = Arrays.stream(uri.getQuery().split("&")).map(q -> q.split("=", 2))
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
        assertTrue(endpoint.queryParams().containsAll(query.keySet()), ping + " query " + query.keySet()
                + " vs parameters " + endpoint.queryParams() + " of " + endpoint);
        Duration budget = AppFacts.duration(query.get("budget"));
        assertEquals("* * * * *", at(ping.body(), "spec", "schedule"), ping + " schedule");
        assertTrue(budget.compareTo(Duration.ofMinutes(1)) < 0, ping + ": a budget of " + budget
                + " lets passes of a once-a-minute schedule pile up");
        Duration timeout = Duration.ofSeconds(((Number) at(service.body(), "spec", "template", "spec", "timeoutSeconds")).longValue());
        assertTrue(budget.compareTo(timeout) < 0, "a pass of " + budget + " outlives the request timeout " + timeout);
    }

    @Test
    void theSinkBindingGivesTheHttpHandlerItsUrl() {
        Doc binding = Manifests.only(docs, "SinkBinding", "leasehold-handler");
        assertEquals("sources.knative.dev/v1", binding.body().get("apiVersion"));
        assertRefersToTheService(binding, at(binding.body(), "spec", "subject"));
        assertTrue(at(binding.body(), "spec", "sink", "ref") != null || at(binding.body(), "spec", "sink", "uri") != null,
                binding + " has no sink");
        Instance instance = Instances.kubernetes(Manifests.KNATIVE).get(0);
        assertFalse(instance.env().containsKey("K_SINK"), "K_SINK comes from the SinkBinding, not the manifest");
        String sink = "http://receiver.test/events";
        LeaseholdConfig config = instance.config(Map.of("K_SINK", sink));
        assertEquals("http", config.handler().name(), instance + " leasehold.handler");
        assertEquals(sink, config.handler().http().url().orElse(null), "leasehold.handler.http.url follows K_SINK");
    }

    private void assertRefersToTheService(Doc from, Object ref) {
        Map<String, Object> r = Manifests.map(ref, from + " reference");
        assertEquals(Set.of(service.body().get("apiVersion"), service.kind(), service.name()),
                Set.of(r.get("apiVersion"), r.get("kind"), r.get("name")), from + " must point at " + service);
    }
}
