package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What a batch folder's maker identity can prove, read from this machine's /proc. */
class MakerIdentityTest {

    private static final String ME = MakerIdentity.current();

    @Test
    void thisProcessIsKnownAndAlive() {
        assertNotEquals(MakerIdentity.UNKNOWN, ME, "Linux with /proc: the identity is known");
        assertFalse(ME.contains("~") || ME.contains("/"), ME);
        assertFalse(MakerIdentity.provablyDead(ME));
    }

    @Test
    void itsPidWithAnotherStartTimeIsAProcessThatEnded() {
        assertTrue(MakerIdentity.provablyDead(ME.substring(0, ME.lastIndexOf('.') + 1) + "1"));
    }

    @Test
    void aMakerOfAnotherBootOrNamespaceOrUnknownProvesNothing() {
        String[] parts = ME.split("\\.");
        String otherBoot = (parts[0].charAt(0) == '0' ? "1" : "0") + parts[0].substring(1); // differs in its first digit
        assertFalse(MakerIdentity.provablyDead(otherBoot + "." + parts[1] + ".1.1"));
        assertFalse(MakerIdentity.provablyDead(parts[0] + ".1." + parts[2] + ".1"));
        assertFalse(MakerIdentity.provablyDead(MakerIdentity.UNKNOWN));
    }
}
