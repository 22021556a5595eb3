package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The API suite on the JetStream spool. */
@QuarkusTest
@TestProfile(JetStreamSpoolProfile.class)
class JetStreamItemsApiTest extends ItemsApiContract {
}
