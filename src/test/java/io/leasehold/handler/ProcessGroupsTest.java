package io.leasehold.handler;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.leasehold.testing.Await;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A group has members while a process of it lives, and none once they all ended. */
class ProcessGroupsTest {

    @Test
    void aGroupHasMembersWhileOneLivesAndNoneAfter() throws Exception {
        Process leader = new ProcessBuilder("setsid", "sleep", "60").start();
        try {
            long pgid = leader.pid(); // setsid made it the leader of a group of its own
            Await.until("the group seen", Duration.ofSeconds(10), () -> ProcessGroups.hasMembers(pgid));
            leader.destroyForcibly().waitFor();
            assertFalse(ProcessGroups.hasMembers(pgid), "no member once its only process ended");
        } finally {
            leader.destroyForcibly();
        }
    }
}
