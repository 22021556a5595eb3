package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;

/** Bulk retry, bulk purge and retention on the spool directory (the default profile). */
@QuarkusTest
class DirectoryBulkTest extends BulkContract {
}
