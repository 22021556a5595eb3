package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The alerts and the dashboard of {@code deployments/monitoring} against the service's own scrape: every
 * metric they name exists, the handler durations have the fixed buckets the dashboard's quantiles add up,
 * the lease gauges say this instance's mode, and the ServiceMonitor finds the Service of
 * {@code deployments/kubernetes} on its metrics path.
 */
@QuarkusTest
class MonitoringTest {

    static final Path MONITORING = Path.of("deployments", "monitoring");
    private static final Pattern METRIC = Pattern.compile("leasehold_[a-z_]+");
    private static Scrape scrape;

    /** Once the service has run one item: meters made on first use (attempts, durations) show from then on. */
    @BeforeEach
    void oneAttemptAtLeast() {
        if (scrape == null) {
            given().queryParam("id", SpoolFixture.uniqueId("monitored")).body("x").when().post("/items").then()
                    .statusCode(201);
            given().queryParam("budget", "10s").when().post("/drain").then().statusCode(200);
            scrape = Scrape.now();
        }
    }

    /** The metric families of the scrape, as Prometheus names them ({@code _total}, {@code _bucket}...). */
    private static Set<String> families() {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.text.split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }

    private static Set<String> named(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(text);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    @SuppressWarnings("unchecked")
    private static List<String> ruleExpressions() throws IOException {
        Map<String, Object> rule = new Yaml().load(Files.readString(MONITORING.resolve("prometheusrule.yaml")));
        List<String> exprs = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) ((Map<String, Object>) rule.get("spec")).get("groups")) {
            for (Map<String, Object> r : (List<Map<String, Object>>) group.get("rules")) {
                exprs.add(String.valueOf(r.get("expr")));
            }
        }
        return exprs;
    }

    private static List<String> dashboardExpressions() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(MONITORING.resolve("leasehold-dashboard.json").toFile());
        List<String> exprs = new ArrayList<>();
        dashboard.path("panels").forEach(panel -> panel.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
        return exprs;
    }

    @Test
    void everyMetricTheAlertsNameIsScraped() throws IOException {
        List<String> exprs = ruleExpressions();
        assertTrue(exprs.size() >= 5, exprs.toString());
        Set<String> missing = new TreeSet<>();
        exprs.forEach(e -> missing.addAll(named(e)));
        assertFalse(missing.isEmpty(), "the alerts name leasehold's metrics");
        missing.removeAll(families());
        assertEquals(Set.of(), missing, "named by prometheusrule.yaml, not in /q/metrics:\n" + scrape);
    }

    @Test
    void everyMetricTheDashboardNamesIsScraped() throws IOException {
        List<String> exprs = dashboardExpressions();
        assertTrue(exprs.size() >= 8, exprs.toString());
        Set<String> missing = new TreeSet<>();
        exprs.forEach(e -> missing.addAll(named(e)));
        missing.removeAll(families());
        assertEquals(Set.of(), missing, "named by leasehold-dashboard.json, not in /q/metrics:\n" + scrape);
    }

    @Test
    void handlerDurationsHaveTheFixedBucketsFromFiveMillisecondsToFifteenMinutes() {
        for (String le : List.of("0.005", "0.1", "1.0", "60.0", "900.0", "+Inf")) {
            assertTrue(scrape.text.contains("le=\"" + le + "\""), "bucket le=" + le + " in:\n" + scrape);
        }
        assertTrue(scrape.sample("leasehold_handler_duration_seconds_bucket", "le=\"+Inf\"") >= 1);
    }

    @Test
    void theLeaseGaugesSayThisInstancesModeAndEpoch() {
        // The test profile has no bus: no-bus mode, epoch 0 (docs/lease.md).
        assertEquals(1.0, scrape.sample("leasehold_lease_mode", "mode=\"no-bus\""));
        for (String other : List.of("held", "waiting", "unleased", "lost")) {
            assertEquals(0.0, scrape.sample("leasehold_lease_mode", "mode=\"" + other + "\""), other);
        }
        assertEquals(0.0, scrape.sample("leasehold_lease_epoch", ""));
    }

    @Test
    void theStuckClaimsAlertReadsTheStuckClaimGaugesWhichAreScraped() throws IOException {
        assertTrue(ruleExpressions().stream().anyMatch(e -> e.contains("leasehold_claims_stuck")),
                "an alert on stuck claims");
        assertTrue(dashboardExpressions().stream().anyMatch(e -> e.contains("leasehold_claims_oldest_age_seconds")),
                "a panel of the oldest claim's age");
        // The one item was drained long before three claim leases passed: nothing is stuck.
        assertEquals(0.0, scrape.sample("leasehold_claims_stuck", ""));
        assertTrue(scrape.sample("leasehold_claims_oldest_age_seconds", "") >= 0);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theServiceMonitorSelectsTheServiceByItsLabelsAndScrapesItsMetricsPort() throws IOException {
        Map<String, Object> monitor = new Yaml().load(Files.readString(MONITORING.resolve("servicemonitor.yaml")));
        Map<String, Object> service = new Yaml().load(Files.readString(Path.of("deployments", "kubernetes",
                "service.yaml")));
        Map<String, Object> spec = (Map<String, Object>) monitor.get("spec");
        Map<String, Object> wanted = (Map<String, Object>) ((Map<String, Object>) spec.get("selector")).get("matchLabels");
        Map<String, Object> labels = (Map<String, Object>) ((Map<String, Object>) service.get("metadata")).get("labels");
        assertTrue(labels.entrySet().containsAll(wanted.entrySet()), labels + " must hold " + wanted);
        Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get("endpoints")).get(0);
        List<Map<String, Object>> ports = (List<Map<String, Object>>) ((Map<String, Object>) service.get("spec")).get("ports");
        assertTrue(ports.stream().anyMatch(p -> endpoint.get("port").equals(p.get("name"))), ports.toString());
        assertEquals("/q/metrics", endpoint.get("path"));
        given().when().get(String.valueOf(endpoint.get("path"))).then().statusCode(200);
    }
}
