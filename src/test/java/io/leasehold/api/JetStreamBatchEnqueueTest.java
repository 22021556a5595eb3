package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** POST /items/batch on the JetStream spool. */
@QuarkusTest
@TestProfile(JetStreamSpoolProfile.class)
class JetStreamBatchEnqueueTest extends BatchEnqueueContract {
}
