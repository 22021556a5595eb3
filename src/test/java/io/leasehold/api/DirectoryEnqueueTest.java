package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;

/** POST /items on the spool directory (the default profile). */
@QuarkusTest
class DirectoryEnqueueTest extends EnqueueContract {
}
