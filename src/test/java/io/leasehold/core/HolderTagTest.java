package io.leasehold.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The holder carried in a claim's nonce, and the claim a schedule parks an item under. */
class HolderTagTest {

    @Test
    void aTagIsTheHostAndPidKeptToTheNonceGrammarAndCutToFitNeverThePid() {
        assertEquals("web3p4711", HolderTag.of("Web-3", 4711).text());
        HolderTag longHost = HolderTag.of("leasehold-7d9f8b6c5-xk2p9.cluster.local", 1234567);
        assertEquals(HolderTag.MAX_LENGTH, longHost.text().length());
        assertTrue(longHost.text().endsWith("p1234567"), longHost.text());
        assertEquals("p1", HolderTag.of("---", 1).text(), "a host of no letters or digits leaves the pid");
        assertThrows(IllegalArgumentException.class, () -> new HolderTag("UPPER"));
        assertThrows(IllegalArgumentException.class, () -> new HolderTag("x".repeat(23)));
    }

    @Test
    void aTaggedNonceNamesItsHolderAndParsesAsAnyNonceDoes() {
        HolderTag tag = HolderTag.of("worker-a.example", 99);
        Generation made = Generation.at(2, tag);
        assertTrue(made.nonce().length() <= 32, made.nonce());
        assertEquals(Optional.of(tag.text()), made.holder());
        Generation parsed = Generation.parse(made.toString()).orElseThrow();
        assertEquals(made, parsed);
        assertEquals(Optional.of(tag.text()), parsed.holder());
        assertEquals(Optional.of(tag.text()), made.next(tag).holder());
        assertEquals(3, made.next(tag).attempt());
    }

    @Test
    void anOldNonceWithoutATagStillParsesAndNamesNoHolder() {
        Generation old = Generation.parse("3-k2x9a0b1c2").orElseThrow(); // ten characters, as every older build wrote
        assertEquals(Optional.empty(), old.holder());
        assertEquals(Optional.empty(), Generation.parse("1-abc").orElseThrow().holder());
        assertEquals(Optional.empty(), Generation.first().holder(), "an untagged one made now names none either");
        assertEquals(Optional.empty(), Generation.at(1, HolderTag.NONE).holder());
    }

    @Test
    void aScheduleParksTheItemSoItIsTakeableAtItsRunAtAndNotAMillisecondBefore() {
        LeaseTerms terms = new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10));
        Instant now = Instant.parse("2026-11-30T15:00:00Z");
        Instant runAt = now.plus(Duration.ofMinutes(5)).plusNanos(1_500_000); // past a millisecond boundary
        ClaimName parked = Schedule.parkedClaim("s", runAt, now, terms).orElseThrow();
        assertEquals(1, parked.generation().attempt());
        assertTrue(!terms.takeableAt(parked).isBefore(runAt), terms.takeableAt(parked) + " before " + runAt);
        assertTrue(terms.takeableAt(parked).isBefore(runAt.plusMillis(1)));
        assertTrue(!terms.isTakeable(parked, runAt.minusNanos(1)));
        assertEquals(Optional.empty(), Schedule.parkedClaim("s", now, now, terms), "now: pending, not parked");
        assertEquals(Optional.empty(), Schedule.parkedClaim("s", now.minusSeconds(1), now, terms), "past: now");
        assertEquals(Optional.empty(), Schedule.parkedClaim("s", null, now, terms));
    }
}
