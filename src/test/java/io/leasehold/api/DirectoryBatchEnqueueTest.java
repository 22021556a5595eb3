package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;

/** POST /items/batch on the spool directory (the default profile). */
@QuarkusTest
class DirectoryBatchEnqueueTest extends BatchEnqueueContract {
}
