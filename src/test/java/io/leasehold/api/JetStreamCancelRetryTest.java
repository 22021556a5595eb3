package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** Cancel and retry on the JetStream spool. */
@QuarkusTest
@TestProfile(JetStreamSpoolProfile.class)
class JetStreamCancelRetryTest extends CancelRetryContract {
}
