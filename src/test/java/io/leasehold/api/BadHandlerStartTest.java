package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.main.Launch;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainTest;
import org.junit.jupiter.api.Test;

/** A leasehold.handler that names nothing stops the start with status 1 and a message naming the key. */
@QuarkusMainTest
@TestProfile(BadHandlerProfile.class)
class BadHandlerStartTest {

    @Test
    @Launch(value = {}, exitCode = 1)
    void startFailsNamingTheKey(LaunchResult result) {
        String said = result.getOutput() + "\n" + result.getErrorOutput();
        assertTrue(said.contains("leasehold.handler"), said);
        assertTrue(said.contains("no-such-handler"), said);
    }
}
