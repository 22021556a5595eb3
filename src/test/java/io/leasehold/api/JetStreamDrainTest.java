package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** POST /drain, its counts and meters on the JetStream spool. */
@QuarkusTest
@TestProfile(JetStreamSpoolProfile.class)
class JetStreamDrainTest extends DrainContract {
}
