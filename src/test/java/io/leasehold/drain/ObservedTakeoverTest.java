package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Outcome;
import io.leasehold.core.TakeoverRule;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The default takeover rule (docs/protocol.md): a taker needs the reading expired by its own clock and the
 * claim's name seen unchanged on its own monotonic clock for longer than two renewal intervals (80 s
 * with the test's lease of 120 s and 3 renewals per lease). So a live holder keeps its claims whatever
 * its clock says, and a dead one's are still taken over.
 */
class ObservedTakeoverTest extends SpoolTestBase {

    private static final Duration RENEW_EVERY = Instance.TERMS.renewEvery();

    private ClaimName onlyClaim() throws IOException {
        List<ClaimName> claims = claims();
        assertEquals(1, claims.size(), "claims: " + claims);
        return claims.get(0);
    }

    /** Both clocks run for {@code steps} renewal intervals; the holder renews, the other polls each time. */
    private static void runTogether(Instance holder, Instance other, int steps) {
        for (int step = 0; step < steps; step++) {
            holder.clock.advance(RENEW_EVERY);
            other.clock.advance(RENEW_EVERY);
            other.poll();
        }
    }

    /** An instance whose clock starts at {@code start}, working on item "a". */
    private Instance holding(java.time.Instant start) throws IOException {
        Instance holder = instance(start, TakeoverRule.OBSERVED);
        enqueue("a");
        holder.poll();
        holder.handler.awaitStarted("a", 1);
        return holder;
    }

    /** Working on item "a" with a clock an hour behind: its readings look an hour old. */
    private Instance holderAnHourBehind() throws IOException {
        return holding(T0.minus(Duration.ofHours(1)));
    }

    @Test
    void aLiveHolderWhoseClockIsAnHourBehindKeepsItsClaim() throws IOException {
        Instance holder = holderAnHourBehind();
        Instance other = instance(T0, TakeoverRule.OBSERVED);

        runTogether(holder, other, 30); // twenty minutes of work; every reading looks an hour old to the other
        assertTrue(other.handler.started.isEmpty(), "never taken over: " + other.handler.started);
        assertEquals(1, onlyClaim().generation().attempt());
        assertEquals(0, other.events.count("tookOver:a:2"));
    }

    @Test
    void aLiveHolderWhoseWallClockStandsStillKeepsItsClaim() throws IOException {
        Instance holder = holding(T0);
        Instance other = instance(T0, TakeoverRule.OBSERVED);

        for (int step = 0; step < 30; step++) {
            holder.clock.pass(RENEW_EVERY); // its monotonic clock runs...
            holder.clock.set(T0); // ...and its wall clock stands still
            holder.renew();
            other.clock.advance(RENEW_EVERY);
            other.poll();
        }
        assertTrue(other.handler.started.isEmpty(), "never taken over: " + other.handler.started);
        assertEquals(1, onlyClaim().generation().attempt());
    }

    @Test
    void theReadingRuleTrustsClocksAndTakesTheSameLiveClaimAtOnce() throws IOException {
        Instance holder = holderAnHourBehind();
        Instance other = instance(T0, TakeoverRule.READING);

        other.poll();
        other.handler.awaitStarted("a", 2);
        holder.clock.advance(RENEW_EVERY); // its next renewal finds the name gone: the live claim was lost
        holder.handler.awaitCancelled("a");
    }

    @Test
    void aLiveHolderKeepsItsClaimWhenTheOtherClockJumpsTenMinutesAhead() throws IOException {
        Instance holder = holding(T0);
        Instance other = instance(T0, TakeoverRule.OBSERVED);

        runTogether(holder, other, 3);
        other.clock.set(other.clock.now().plus(Duration.ofMinutes(10)));
        runTogether(holder, other, 10);
        assertTrue(other.handler.started.isEmpty(), "never taken over: " + other.handler.started);
        assertEquals(1, onlyClaim().generation().attempt());
    }

    @Test
    void aWatcherTakesADeadHoldersClaimOnceTheLeaseAndSkewHavePassed() throws IOException {
        Instance dead = instance(T0, TakeoverRule.OBSERVED);
        Instance watcher = instance(T0, TakeoverRule.OBSERVED);
        enqueue("a");
        dead.poll();
        dead.handler.awaitStarted("a", 1);
        watcher.poll(); // sees the name from the start

        // The dead holder never ticks again. The observation (80 s) is shorter than lease + skew (130 s).
        for (int s = 1; s < Instance.TAKEABLE_AFTER.toSeconds(); s++) {
            watcher.clock.advance(Duration.ofSeconds(1));
            watcher.poll();
        }
        // The takeover itself is counted within the poll; the handler starts on a worker afterwards.
        assertEquals(0, watcher.events.count("tookOver:a:2"), "not before lease + skew");
        watcher.clock.advance(Duration.ofSeconds(1));
        watcher.poll();
        watcher.handler.awaitStarted("a", 2);
        assertEquals(2, onlyClaim().generation().attempt());
    }

    @Test
    void anInstanceStartedAfterTheHolderDiedTakesOverWithinTwoRenewalIntervalsAndAPoll() throws IOException {
        Instance dead = instance(T0, TakeoverRule.OBSERVED);
        enqueue("a");
        dead.poll();
        dead.handler.awaitStarted("a", 1);

        // Started long after: the reading expired ages ago, but this instance has seen nothing yet.
        Instance late = instance(T0.plus(Duration.ofMinutes(30)), TakeoverRule.OBSERVED);
        late.poll();
        long observedFor = 0;
        while (late.events.count("tookOver:a:2") == 0) {
            late.clock.advance(Duration.ofSeconds(1));
            observedFor++;
            late.poll();
            assertTrue(observedFor <= RENEW_EVERY.multipliedBy(2).toSeconds() + 1,
                    "within 2 × lease/N + poll-interval of its start, not " + observedFor + " s");
        }
        late.handler.awaitStarted("a", 2);
        assertEquals(RENEW_EVERY.multipliedBy(2).toSeconds() + 1, observedFor,
                "not before its holder missed two renewals as seen from here");
    }

    @Test
    void aRetryParkedByThisInstanceRunsAfterItsBackoffWithoutWatching() throws IOException {
        Instance only = instance(T0, TakeoverRule.OBSERVED);
        enqueue("a");
        only.poll();
        only.handler.awaitStarted("a", 1);
        only.handler.finish("a", Outcome.retry("not yet"));
        io.leasehold.testing.Await.until("parked", WAIT, () -> only.events.count("settled:a:retried") == 1);

        // Backoff of attempt 1 is at most 1 s: the parker takes its own parked claim then, not 80 s later.
        only.clock.advance(Duration.ofSeconds(1));
        only.poll();
        only.handler.awaitStarted("a", 2);
    }

    /** Item "a" tried once and parked for a retry while the instance's wall clock was an hour ahead. */
    private Instance parkedAnHourAhead() throws IOException {
        Instance parker = instance(T0, TakeoverRule.OBSERVED);
        enqueue("a");
        parker.poll();
        parker.handler.awaitStarted("a", 1);
        parker.clock.set(parker.clock.now().plus(Duration.ofHours(1))); // an NTP step, the monotonic clock untouched
        parker.handler.finish("a", Outcome.retry("not yet"));
        io.leasehold.testing.Await.until("parked", WAIT, () -> parker.events.count("settled:a:retried") == 1);
        assertTrue(onlyClaim().reading().isAfter(T0.plus(Duration.ofMinutes(50))), "parked an hour ahead: " + onlyClaim());
        return parker;
    }

    @Test
    void aRetryParkedByAWallClockAnHourAheadRunsAfterItsStepBackNotAnHourLater() throws IOException {
        Instance parker = parkedAnHourAhead();
        parker.clock.set(parker.clock.now().minus(Duration.ofHours(1))); // stepped back
        parker.clock.advance(Duration.ofSeconds(1));
        parker.poll();
        parker.handler.awaitStarted("a", 2);
    }

    @Test
    void aRetryParkedByAnotherInstanceAnHourAheadIsTakenOnceSeenUnchangedNotAnHourLater() throws IOException {
        parkedAnHourAhead();
        Instance other = instance(T0, TakeoverRule.OBSERVED); // a true clock
        other.poll();
        for (int s = 0; s < RENEW_EVERY.multipliedBy(2).toSeconds(); s++) {
            assertTrue(other.handler.started.isEmpty(), "watched first, as any claim: " + other.handler.started);
            other.clock.advance(Duration.ofSeconds(1));
            other.poll();
        }
        other.clock.advance(Duration.ofSeconds(1));
        other.poll();
        other.handler.awaitStarted("a", 2);
    }

    @Test
    void aLiveClaimOfAHolderAnHourAheadIsNoRetryAndStaysItsHolders() throws IOException {
        Instance holder = holding(T0.plus(Duration.ofHours(1)));
        Instance other = instance(T0, TakeoverRule.READING); // the rule that trusts readings alone
        runTogether(holder, other, 30);
        assertTrue(other.handler.started.isEmpty(), "a live claim far ahead is not a parked retry: "
                + other.handler.started);
    }
}
