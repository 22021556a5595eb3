package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A refusal quotes a duration as the operator wrote it, and never echoes anything else from its source. */
class ProblemsTest {

    private static String said(Map<String, String> written, java.util.function.Consumer<Problems> check) {
        Problems problems = new Problems(key -> Optional.ofNullable(written.get(key)));
        check.accept(problems);
        try {
            problems.stopIfAny();
            return "";
        } catch (InvalidConfigException e) {
            return e.getMessage();
        }
    }

    @Test
    void aKeysOwnDurationIsQuotedAsWritten() {
        assertEquals("invalid configuration: leasehold.claim.lease must be positive, got -5000ms",
                said(Map.of("leasehold.claim.lease", "-5000ms"),
                        p -> p.positive("leasehold.claim.lease", Duration.ofSeconds(-5))));
        assertEquals("invalid configuration: leasehold.claim.lease must be positive, got PT-5S",
                said(Map.of("leasehold.claim.lease", "PT-5S"),
                        p -> p.positive("leasehold.claim.lease", Duration.ofSeconds(-5))));
    }

    @Test
    void withoutItsSourceADurationIsQuotedAsPeopleWriteIt() {
        assertEquals("invalid configuration: leasehold.claim.lease must be positive, got -5s",
                said(Map.of(), p -> p.positive("leasehold.claim.lease", Duration.ofSeconds(-5))));
    }

    @Test
    void theOtherKeysARuleQuotesAreAsWrittenToo() {
        assertEquals("invalid configuration: leasehold.nats.request-timeout (3000ms) must be shorter than"
                + " leasehold.lease.duration (PT2S)", said(Map.of("leasehold.nats.request-timeout", "3000ms",
                        "leasehold.lease.duration", "PT2S"), p -> p.add("leasehold.nats.request-timeout",
                        "(3s) must be shorter than leasehold.lease.duration (2s)")));
    }

    @Test
    void aValueThatIsNoDurationIsNeverEchoedFromItsSource() {
        assertEquals("invalid configuration: leasehold.handler.http.url must be an absolute http:// or https:// URL"
                + " with a host, got 'ftp://***@host'", said(Map.of("leasehold.handler.http.url",
                        "ftp://user:secret@host"), p -> p.add("leasehold.handler.http.url",
                        "must be an absolute http:// or https:// URL with a host, got 'ftp://***@host'")));
    }

    @Test
    void anExpandedValueIsQuotedAsTheRuleJudgedIt() {
        assertEquals("invalid configuration: leasehold.claim.lease must be positive, got 0s",
                said(Map.of("leasehold.claim.lease", "${LEASE}"), p -> p.positive("leasehold.claim.lease", Duration.ZERO)));
    }
}
