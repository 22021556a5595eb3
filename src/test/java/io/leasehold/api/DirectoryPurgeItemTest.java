package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;

/** The purge of one item on the spool directory (the default profile). */
@QuarkusTest
class DirectoryPurgeItemTest extends PurgeItemContract {
}
