package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;

/** Cancel and retry on the spool directory (the default profile). */
@QuarkusTest
class DirectoryCancelRetryTest extends CancelRetryContract {
}
