package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The 413 limits on the spool directory (1K payloads). */
@QuarkusTest
@TestProfile(SmallPayloadsProfile.class)
class DirectoryPayloadLimitTest extends PayloadLimitContract {
}
