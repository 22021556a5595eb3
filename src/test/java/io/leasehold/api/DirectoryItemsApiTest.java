package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;

/** The API suite on the spool directory (the default profile). */
@QuarkusTest
class DirectoryItemsApiTest extends ItemsApiContract {
}
