package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;

/** GET /items a page at a time, on the spool directory. */
@QuarkusTest
class DirectoryPagingTest extends PagingContract {
}
