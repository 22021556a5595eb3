package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The 413 limits on the JetStream spool. */
@QuarkusTest
@TestProfile(JetStreamSpoolProfile.class)
class JetStreamPayloadLimitTest extends PayloadLimitContract {
}
