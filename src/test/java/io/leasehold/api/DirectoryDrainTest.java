package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;

/** POST /drain, its counts and meters on the spool directory (the default profile). */
@QuarkusTest
class DirectoryDrainTest extends DrainContract {
}
