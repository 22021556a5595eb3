package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The start-up check on a real config mapping built from properties, as Quarkus builds it: every bad
 * value stops the start with a message naming its key (exit status 1 in the running service).
 */
class ConfigCheckTest {

    private static LeaseholdConfig config(Map<String, String> properties) {
        return Mapped.of(properties);
    }

    @Test
    void theDefaultsPass() {
        assertDoesNotThrow(() -> ConfigCheck.require(config(Map.of())));
    }

    @ParameterizedTest(name = "{0}=forever")
    @CsvSource({"leasehold.spool.done-max-age", "leasehold.spool.failed-max-age"})
    void aMaxAgeThatIsNoDurationIsRefusedNamingItsKey(String key) {
        RuntimeException refused = assertThrows(RuntimeException.class,
                () -> ConfigCheck.require(config(Map.of(key, "forever"))));
        assertTrue(String.valueOf(refused.getMessage()).contains(key), refused.getMessage());
    }

    @Test
    void aViewersTokenNeedsTheOperatorsBesideItAndAnotherValue() {
        ConfigCheck.InvalidConfigException alone = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(config(Map.of("leasehold.api.viewer-token", "v"))));
        assertTrue(alone.getMessage().contains("leasehold.api.viewer-token needs leasehold.api.token beside it"),
                alone.getMessage());
        ConfigCheck.InvalidConfigException same = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(config(Map.of("leasehold.api.viewer-token", "t", "leasehold.api.token", "t"))));
        assertTrue(same.getMessage().contains("leasehold.api.viewer-token is leasehold.api.token's own"), same.getMessage());
        assertDoesNotThrow(() -> ConfigCheck.require(config(Map.of("leasehold.api.viewer-token", "v",
                "leasehold.api.token", "o"))));
        for (String bad : new String[] {"two words", "tab\there", "caf\u00e9"}) {
            ConfigCheck.InvalidConfigException refused = assertThrows(ConfigCheck.InvalidConfigException.class,
                    () -> ConfigCheck.require(config(Map.of("leasehold.api.token", bad))));
            assertTrue(refused.getMessage().contains("leasehold.api.token must be printable ASCII without spaces"),
                    refused.getMessage());
        }
    }

    @Test
    void aTmpMaxAgeShorterThanTwiceTheUploadTimeoutIsRefusedNamingBoth() {
        ConfigCheck.InvalidConfigException refused = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(config(Map.of("leasehold.spool.tmp-max-age", "2m",
                        "leasehold.item.upload-timeout", "90s"))));
        assertTrue(refused.getMessage().contains("leasehold.spool.tmp-max-age must be at least twice "
                + "leasehold.item.upload-timeout (90s), got 2m"), refused.getMessage());
        assertDoesNotThrow(() -> ConfigCheck.require(config(Map.of("leasehold.spool.tmp-max-age", "3m",
                "leasehold.item.upload-timeout", "90s"))));
    }

    @Test
    void execWithACommandPasses() {
        assertDoesNotThrow(() -> ConfigCheck.require(config(Map.of("leasehold.handler", "exec",
                "leasehold.handler.exec.command", "cat > /dev/null"))));
    }

    @ParameterizedTest(name = "url={0}")
    @CsvSource(delimiter = '|', value = {"'   '", "ftp://example.com/in", "example.com/in", "http:///no-host",
        "'http://exa mple.com/'", "file:/tmp/x"})
    void httpRefusesAUrlThatIsNotHttpNamingTheKey(String url) {
        ConfigCheck.InvalidConfigException refused = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(config(Map.of("leasehold.handler", "http",
                        "leasehold.handler.http.url", url))));
        assertTrue(refused.getMessage().contains("leasehold.handler.http.url"), refused.getMessage());
    }

    @ParameterizedTest(name = "url={0}")
    @CsvSource({"http://127.0.0.1:8081/events", "https://sink.default.svc.cluster.local", "HTTP://Example.com:80"})
    void httpWithAnHttpUrlPasses(String url) {
        assertDoesNotThrow(() -> ConfigCheck.require(config(Map.of("leasehold.handler", "http",
                "leasehold.handler.http.url", url))));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "leasehold.spool.jetstream.bucket|items.v1",
        "leasehold.spool.jetstream.replicas|0",
        "leasehold.spool.jetstream.replicas|6"})
    void theJetStreamSpoolsKeysAreCheckedWhenItIsChosen(String key, String value) {
        Map<String, String> jetstream = Map.of("leasehold.spool.kind", "jetstream",
                "leasehold.nats.url", "nats://127.0.0.1:4222", key, value);
        ConfigCheck.InvalidConfigException refused = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(config(jetstream)));
        assertTrue(refused.getMessage().startsWith("invalid configuration: " + key + " ")
                && !refused.getMessage().contains("; "), "one problem, naming the key: " + refused.getMessage());
        assertDoesNotThrow(() -> ConfigCheck.require(config(Map.of("leasehold.spool.kind", "jetstream",
                "leasehold.nats.url", "nats://127.0.0.1:4222"))), "its defaults pass");
        assertDoesNotThrow(() -> ConfigCheck.require(config(Map.of(key, value))), "unchecked for the directory");
    }

    @Test
    void httpRefusesBlankCloudEventAttributes() {
        ConfigCheck.InvalidConfigException refused = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(config(Map.of("leasehold.handler", "http",
                        "leasehold.handler.http.url", "http://localhost/", "leasehold.handler.http.source", " ",
                        "leasehold.handler.http.type", " "))));
        assertTrue(refused.getMessage().contains("leasehold.handler.http.source")
                && refused.getMessage().contains("leasehold.handler.http.type"), refused.getMessage());
    }

    @Test
    void uploadsMustLeaveWorkerThreadsForTheDrain() {
        assertDoesNotThrow(() -> ConfigCheck.require(config(Map.of()), 200), "64 uploads beside 200 workers");
        ConfigCheck.InvalidConfigException refused = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(config(Map.of()), 16));
        assertTrue(refused.getMessage().contains("leasehold.item.max-uploads (64) must leave worker threads for the "
                + "drain: at most quarkus.thread-pool.max-threads (16) - leasehold.drain.concurrency (4) - 8 = 4"),
                refused.getMessage());
    }

    @Test
    void connectionsMustLeaveTheServiceItsReserveOfDescriptors() {
        LeaseholdConfig twoAtOnce = config(Map.of("leasehold.drain.concurrency", "2"));
        assertDoesNotThrow(() -> ConfigCheck.require(twoAtOnce, 200, OptionalLong.of(128), OptionalInt.of(16)),
                "the derived cap under ulimit -n 128");
        assertDoesNotThrow(() -> ConfigCheck.require(twoAtOnce, 200, OptionalLong.empty(), OptionalInt.empty()),
                "an unknown limit holds nothing against the cap");
        ConfigCheck.InvalidConfigException tooMany = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(twoAtOnce, 200, OptionalLong.of(128), OptionalInt.of(17)));
        assertTrue(tooMany.getMessage().contains("quarkus.http.limits.max-connections (17) leaves the service too few"
                + " descriptors: at most (open files 128 - reserve 64 + 8 × leasehold.drain.concurrency = 80) / 3 per"
                + " connection = 16"), tooMany.getMessage());
        ConfigCheck.InvalidConfigException uncapped = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(twoAtOnce, 200, OptionalLong.of(128), OptionalInt.empty()));
        assertTrue(uncapped.getMessage().contains("quarkus.http.limits.max-connections is unset"), uncapped.getMessage());
    }

    @Test
    void aLimitBelowTheReserveIsRefusedNamingTheConcurrency() {
        ConfigCheck.InvalidConfigException refused = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(config(Map.of()), 200, OptionalLong.of(64), OptionalInt.of(1)));
        assertTrue(refused.getMessage().contains("leasehold.drain.concurrency (4) leaves no descriptors for HTTP"
                + " connections under this process's open-files limit (ulimit -n 64): the reserve is 64 + 8 ×"
                + " leasehold.drain.concurrency = 96; raise the limit to at least 99"), refused.getMessage());
    }

    @Test
    void everyProblemIsNamedAtOnce() {
        ConfigCheck.InvalidConfigException refused = assertThrows(ConfigCheck.InvalidConfigException.class,
                () -> ConfigCheck.require(config(Map.of("leasehold.drain.concurrency", "0",
                        "leasehold.drain.mode", "solo", "leasehold.item.max-bytes", "0"))));
        String message = refused.getMessage();
        assertTrue(message.contains("leasehold.drain.concurrency") && message.contains("leasehold.drain.mode")
                && message.contains("leasehold.item.max-bytes"), message);
    }
}
