package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Outcome;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The claim protocol between instances on one spool, with time driven by the test. */
class DrainProtocolTest extends SpoolTestBase {

    ClaimName onlyClaim() throws IOException {
        List<ClaimName> claims = claims();
        assertEquals(1, claims.size(), "claims: " + claims);
        return claims.get(0);
    }

    @Test
    void aHolderThatRenewsInTimeKeepsItsClaimForAsLongAsTheWorkLasts() throws IOException {
        Instance holder = instance(T0);
        Instance other = instance(T0);
        enqueue("a", "payload-a");
        holder.poll();
        assertEquals("payload-a", new String(holder.handler.awaitStarted("a", 1).payload(), StandardCharsets.UTF_8));
        // Twenty minutes of work, ten leases: both clocks run, the holder renews every 40 s.
        for (int step = 0; step < 30; step++) {
            holder.clock.advance(Duration.ofSeconds(40));
            other.clock.advance(Duration.ofSeconds(40));
        }
        ClaimName claim = onlyClaim();
        assertEquals(1, claim.generation().attempt());
        assertTrue(holder.clock.now().minus(Duration.ofSeconds(40)).compareTo(claim.reading()) <= 0,
                "renewed within the last interval: " + claim);
        assertTrue(other.handler.started.isEmpty(), "the other instance never ran it");
        assertTrue(holder.handler.cancelled.isEmpty());

        holder.handler.finish("a", Outcome.done());
        Await.until("a settles in done/", WAIT, () -> holder.events.count("settled:a:done") == 1);
        assertTrue(settledIn(SpoolFolder.DONE, "a"));
        assertTrue(claims().isEmpty());
        assertEquals(7L, holder.handler.started.get(0).epoch(), "the epoch source reaches the handler");
    }

    @Test
    void aClaimIsTakenOverOnlyOnceLeaseAndSkewHavePassedWithoutRenewal() throws IOException {
        Instance frozen = instance(T0);
        enqueue("a", "x");
        frozen.poll();
        frozen.handler.awaitStarted("a", 1);

        Instance taker = instance(T0.plus(Instance.TAKEABLE_AFTER).minusMillis(1));
        taker.poll();
        assertEquals(1, onlyClaim().generation().attempt(), "not yet: the lease plus skew has not passed");
        assertTrue(taker.handler.started.isEmpty());

        taker.clock.set(T0.plus(Instance.TAKEABLE_AFTER));
        taker.poll();
        taker.handler.awaitStarted("a", 2);
        assertEquals(2, onlyClaim().generation().attempt());
        assertEquals(1, taker.events.count("tookOver:a:2"));
    }

    @Test
    void aLateHolderFindsItsClaimTakenOverStopsItsWorkAndSettlesNothing() throws IOException {
        Instance late = instance(T0);
        enqueue("a", "x");
        late.poll();
        late.handler.awaitStarted("a", 1);

        Instance taker = instance(T0.plus(Instance.TAKEABLE_AFTER));
        taker.poll();
        taker.handler.awaitStarted("a", 2);

        // The late holder wakes up: its next renewal finds the name it last wrote gone.
        late.clock.advance(Duration.ofSeconds(40));
        late.handler.awaitCancelled("a");
        Await.until("the loss is reported", WAIT, () -> late.events.count("lost:a") == 1);
        assertEquals(2, onlyClaim().generation().attempt(), "the taker's claim is untouched");
        assertFalse(settledIn(SpoolFolder.DONE, "a"));

        taker.handler.finish("a", Outcome.done());
        Await.until("a settles, by the taker", WAIT, () -> taker.events.count("settled:a:done") == 1);
        assertTrue(settledIn(SpoolFolder.DONE, "a"));
        assertEquals(0, late.events.count("settled:a:done"));
    }

    @Test
    void aLateHolderWhoseWorkEndsBeforeItNoticesSettlesNothing() throws IOException {
        Instance late = instance(T0);
        enqueue("a", "x");
        late.poll();
        late.handler.awaitStarted("a", 1);
        Instance taker = instance(T0.plus(Instance.TAKEABLE_AFTER));
        taker.poll();
        taker.handler.awaitStarted("a", 2);

        late.handler.finish("a", Outcome.done()); // no renewal ran: only the settlement can find out
        Await.until("the late holder sees the loss", WAIT, () -> late.events.count("lost:a") == 1);
        assertFalse(settledIn(SpoolFolder.DONE, "a"));
        assertEquals(2, onlyClaim().generation().attempt());
        assertTrue(taker.handler.cancelled.isEmpty());
    }

    @Test
    void maxSkewOfClockDisagreementNeverCostsALiveClaim() throws IOException {
        // The holder's clock is a full max-skew behind the other's: its readings always look 10 s older.
        Instance holder = instance(T0.minus(Instance.TERMS.maxSkew()));
        Instance ahead = instance(T0);
        enqueue("a", "x");
        holder.poll();
        holder.handler.awaitStarted("a", 1);
        for (int second = 0; second < 15 * 60; second++) {
            holder.clock.advance(Duration.ofSeconds(1));
            ahead.clock.advance(Duration.ofSeconds(1)); // polls every second
        }
        assertEquals(1, onlyClaim().generation().attempt());
        assertTrue(ahead.handler.started.isEmpty());
        assertTrue(holder.handler.cancelled.isEmpty());
        assertEquals(0, holder.events.count("lost:a"));
    }

    @Test
    void aRenewalThatRenamesTheClaimJustBeforeTheSettlementIsFollowed() throws IOException {
        Instance holder = instance(T0);
        enqueue("a", "x");
        holder.poll();
        holder.handler.awaitStarted("a", 1);
        ClaimName before = onlyClaim();
        // What a renewal does between the settlement's look and its move: rename to a fresh reading.
        ClaimName renamedBehindItsBack = before.renewedAt(T0.plusSeconds(41));
        Files.move(layout.file(SpoolFolder.CLAIMED, before.fileName()),
                layout.file(SpoolFolder.CLAIMED, renamedBehindItsBack.fileName()));

        holder.handler.finish("a", Outcome.done());
        Await.until("a settles in done/", WAIT, () -> holder.events.count("settled:a:done") == 1);
        assertTrue(settledIn(SpoolFolder.DONE, "a"));
        assertEquals(0, holder.events.count("lost:a"));
        assertTrue(claims().isEmpty());
    }
}
