package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every rule of the start-up check, each broken alone on the real mapping: the refusal is one line that
 * leads with the key to blame and names nothing else. (A {@code leasehold.handler} that names no bean
 * needs the beans, so it is checked in the boot: BadHandlerStartTest and ConfigErrorsIT.)
 */
class EveryRuleTest {

    private static Map<String, String> properties(String settings) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String setting : settings.split(";")) {
            int eq = setting.indexOf('=');
            String value = setting.substring(eq + 1);
            map.put(setting.substring(0, eq), value.equals("BLANK") ? " " : value); // CSV drops bare spaces
        }
        return map;
    }

    private static void oneLineLedBy(String key, String message) {
        assertTrue(message.startsWith("invalid configuration: " + key + " "), "led by " + key + ": " + message);
        // Problems are joined by "; " and each is led by its key.
        assertTrue(!message.contains("\n") && !message.matches(".*; (leasehold|quarkus)\\..*"),
                "one problem on one line: " + message);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', nullValues = "", value = {
        "leasehold.spool.dir|leasehold.spool.dir=BLANK|",
        "leasehold.spool.kind|leasehold.spool.kind=s3|",
        "leasehold.spool.kind|leasehold.spool.kind=jetstream|",
        "leasehold.spool.jetstream.bucket|leasehold.spool.kind=jetstream;leasehold.nats.url=nats://h;leasehold.spool.jetstream.bucket=a.b|",
        "leasehold.spool.jetstream.replicas|leasehold.spool.kind=jetstream;leasehold.nats.url=nats://h;leasehold.spool.jetstream.replicas=0|",
        "leasehold.spool.jetstream.replicas|leasehold.spool.kind=jetstream;leasehold.nats.url=nats://h;leasehold.spool.jetstream.replicas=6|",
        "leasehold.spool.tmp-max-age|leasehold.spool.tmp-max-age=59s|must be at least 1m",
        "leasehold.spool.tmp-max-age|leasehold.spool.tmp-max-age=2m;leasehold.item.upload-timeout=61s|",
        "leasehold.spool.recount-every|leasehold.spool.recount-every=999ms|",
        "leasehold.spool.housekeeping-every|leasehold.spool.housekeeping-every=999ms|",
        "leasehold.spool.done-max-age|leasehold.spool.done-max-age=-1s|",
        "leasehold.spool.failed-max-age|leasehold.spool.failed-max-age=-1s|",
        "leasehold.claim.lease|leasehold.claim.lease=0s|must be positive",
        "leasehold.claim.lease|leasehold.claim.lease=2s|",
        "leasehold.claim.renewals-per-lease|leasehold.claim.renewals-per-lease=1|",
        "leasehold.claim.max-skew|leasehold.claim.max-skew=-1ms|",
        "leasehold.drain.concurrency|leasehold.drain.concurrency=0|",
        "leasehold.drain.poll-interval|leasehold.drain.poll-interval=0s|must be positive",
        "leasehold.drain.poll-interval|leasehold.drain.poll-interval=999ms|",
        "leasehold.drain.max-attempts|leasehold.drain.max-attempts=0|",
        "leasehold.drain.mode|leasehold.drain.mode=bogus|",
        "leasehold.drain.backoff-initial|leasehold.drain.backoff-initial=0s|",
        "leasehold.drain.backoff-max|leasehold.drain.backoff-max=999ms|",
        "leasehold.drain.shutdown-timeout|leasehold.drain.shutdown-timeout=-1s|",
        "leasehold.handler.timeout|leasehold.handler.timeout=-1s|",
        "leasehold.handler.timeout|leasehold.handler.timeout=PT0.0005S|",
        "leasehold.handler.exec.command|leasehold.handler=exec|",
        "leasehold.handler.exec.command|leasehold.handler=exec;leasehold.handler.exec.command=BLANK|",
        "leasehold.handler.http.url|leasehold.handler=http|",
        "leasehold.handler.http.url|leasehold.handler=http;leasehold.handler.http.url=ftp://h/|",
        "leasehold.handler.http.source|leasehold.handler=http;leasehold.handler.http.url=http://h/;leasehold.handler.http.source=BLANK|",
        "leasehold.handler.http.type|leasehold.handler=http;leasehold.handler.http.url=http://h/;leasehold.handler.http.type=BLANK|",
        "leasehold.handler.http.content-type|leasehold.handler=http;leasehold.handler.http.url=http://h/;leasehold.handler.http.content-type=BLANK|",
        "leasehold.item.max-bytes|leasehold.item.max-bytes=0|",
        "leasehold.item.max-uploads|leasehold.item.max-uploads=0|",
        "leasehold.item.max-batch|leasehold.item.max-batch=0|",
        "leasehold.item.upload-timeout|leasehold.item.upload-timeout=999ms|",
        "leasehold.lease.renew-every|leasehold.lease.renew-every=0s|must be positive",
        "leasehold.lease.renew-every|leasehold.lease.renew-every=999ms|",
        "leasehold.lease.renew-deadline|leasehold.lease.renew-deadline=5s|",
        "leasehold.lease.duration|leasehold.lease.duration=10999ms|",
        "leasehold.lease.replicas|leasehold.lease.replicas=0|leasehold.lease.replicas must be between 1 and 5, got 0",
        "leasehold.lease.replicas|leasehold.lease.replicas=6|leasehold.lease.replicas must be between 1 and 5, got 6",
        "leasehold.lease.bucket|leasehold.lease.bucket=a.b|",
        "leasehold.lease.key|leasehold.lease.key=a.|",
        "leasehold.nats.connect-timeout|leasehold.nats.connect-timeout=0s|",
        "leasehold.nats.request-timeout|leasehold.nats.request-timeout=0s|leasehold.nats.request-timeout must be positive",
        "leasehold.nats.request-timeout|leasehold.nats.request-timeout=15s|",
        "leasehold.nats.password|leasehold.nats.user=alice|",
        "leasehold.nats.password|leasehold.nats.password=secret|",
        "leasehold.api.token|leasehold.api.token=BLANK|",
        "leasehold.metrics.stuck-after-leases|leasehold.metrics.stuck-after-leases=0|leasehold.metrics.stuck-after-leases must be at least 1, got 0",
        // And, from the earlier table, more values of the same rules, some with the words the line must say:
        "leasehold.spool.tmp-max-age|leasehold.spool.tmp-max-age=30s|must be at least 1m",
        "leasehold.spool.recount-every|leasehold.spool.recount-every=500ms|",
        "leasehold.spool.recount-every|leasehold.spool.recount-every=0s|",
        "leasehold.spool.failed-max-age|leasehold.spool.failed-max-age=-7d|",
        "leasehold.claim.lease|leasehold.claim.lease=-5s|must be positive",
        "leasehold.claim.max-skew|leasehold.claim.max-skew=-1s|",
        "leasehold.drain.poll-interval|leasehold.drain.poll-interval=500ms|",
        "leasehold.drain.mode|leasehold.drain.mode=everyone|",
        "leasehold.drain.backoff-max|leasehold.drain.backoff-max=100ms|",
        "leasehold.item.upload-timeout|leasehold.item.upload-timeout=500ms|",
        "leasehold.lease.renew-every|leasehold.lease.renew-every=500ms|",
        "leasehold.lease.renew-deadline|leasehold.lease.renew-deadline=3s|",
        "leasehold.lease.duration|leasehold.lease.duration=10s|",
        "leasehold.lease.duration|leasehold.lease.duration=8s|",
        "leasehold.lease.bucket|leasehold.lease.bucket=my bucket|",
        "leasehold.lease.key|leasehold.lease.key=.hidden|",
        "leasehold.nats.connect-timeout|leasehold.nats.connect-timeout=-1s|leasehold.nats.connect-timeout must be positive",
    })
    void eachRuleBrokenAloneIsOneLineLedByItsKey(String key, String settings, String says) {
        Map<String, String> bad = properties(settings);
        InvalidConfigException refused = assertThrows(InvalidConfigException.class,
                () -> ConfigCheck.require(Mapped.of(bad), 200, OptionalLong.empty(), OptionalInt.empty()));
        oneLineLedBy(key, refused.getMessage());
        assertTrue(says == null || refused.getMessage().contains(says), says + ": " + refused.getMessage());
    }

    @ParameterizedTest(name = "{0}: {1} workers, ulimit -n {2}, max-connections {3}")
    @CsvSource(delimiter = '|', value = {
        "leasehold.item.max-uploads|75|100000|1000",
        "quarkus.http.limits.max-connections|200|1000|400",
        "quarkus.http.limits.max-connections|200|1000|-1",
        "leasehold.drain.concurrency|200|98|1",
    })
    void eachRunTimeRuleIsOneLineLedByItsKey(String key, int workers, long openFiles, int maxConnections) {
        OptionalInt cap = maxConnections < 0 ? OptionalInt.empty() : OptionalInt.of(maxConnections);
        InvalidConfigException refused = assertThrows(InvalidConfigException.class,
                () -> ConfigCheck.require(Mapped.defaults(), workers, OptionalLong.of(openFiles), cap));
        oneLineLedBy(key, refused.getMessage());
        assertDoesNotThrow(() -> ConfigCheck.require(Mapped.defaults(), 200, OptionalLong.of(100000),
                OptionalInt.of(1000)), "the defaults fit a roomy process");
    }

    /** The line the pre-flight prints for one setting, which it must blame. */
    private static void preflightBlames(String setting) {
        String key = setting.substring(0, setting.indexOf('='));
        Optional<String> refused = ConfigPreflight.refusal(Mapped.builder(properties(setting))
                .withSources(new DescriptorDefaults()));
        assertTrue(refused.isPresent(), setting + " passed");
        assertTrue(refused.get().startsWith("leasehold: invalid configuration: " + key + " "), refused.get());
        assertTrue(!refused.get().contains("\n"), refused.get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"leasehold.drain.concurrency=abc", "leasehold.claim.lease=soon",
        "leasehold.item.max-bytes=lots", "leasehold.claim.takeover=whenever",
        "leasehold.spool.dir=${LEASEHOLD_TEST_NOTHING_SETS_THIS}",
        // Optional keys the mapping would read as unset: the API without its token, NATS without its password.
        "leasehold.api.token=abc${LEASEHOLD_TEST_NOTHING_SETS_THIS}",
        "leasehold.nats.password=${LEASEHOLD_TEST_NOTHING_SETS_THIS}",
        "leasehold.handler.exec.command=run ${LEASEHOLD_TEST_NOTHING_SETS_THIS}",
        "leasehold.api.tokn=misspelt", "quarkus.thread-pool.max-threads=abc", "leasehold.drain.auto=ture",
        "leasehold.schedules.nightly.paused=ture",
        "leasehold.item.max-bytes=99999999999999999999"})
    void aValueTheMappingCannotReadIsOneLineLedByItsKeyBeforeTheStart(String setting) {
        preflightBlames(setting);
    }

    @ParameterizedTest
    @ValueSource(strings = {"leasehold.drain.mode=bogus", "leasehold.drain.concurrency=0"})
    void thePreflightHoldsTheMappingToTheRules(String setting) {
        assertEquals(Optional.empty(), ConfigPreflight.refusal(Mapped.builder(Map.of())
                .withSources(new DescriptorDefaults())), "the defaults pass under this process's limit");
        preflightBlames(setting);
    }

    @org.junit.jupiter.api.Test
    void aBadHttpUrlIsNamedWithoutItsPassword() {
        InvalidConfigException refused = assertThrows(InvalidConfigException.class, () -> ConfigCheck.require(
                Mapped.of(Map.of("leasehold.handler", "http", "leasehold.handler.http.url", "ftp://user:s3cret@host/x")),
                200, OptionalLong.empty(), OptionalInt.empty()));
        oneLineLedBy("leasehold.handler.http.url", refused.getMessage());
        assertTrue(!refused.getMessage().contains("s3cret") && refused.getMessage().contains("ftp://***@host/x"),
                refused.getMessage());
    }
}
