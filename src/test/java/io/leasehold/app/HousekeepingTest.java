package io.leasehold.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Housekeeping ticks on the driven clock: what a failed tidy does to the bookkeeping sweep. */
@QuarkusTest
@TestProfile(FlakyUpkeepProfile.class)
class HousekeepingTest {

    @Inject
    FlakyUpkeep upkeep;
    @Inject
    DrivenClock clock;

    @Test
    void aSweepThatFailedIsTriedAgainAtTheNextTickNotATmpMaxAgeLater() {
        upkeep.sweepsAsked.clear();
        upkeep.failNext.set(1);
        clock.tick("leasehold-housekeeping"); // the first sweep is due; this tidy fails
        clock.tick("leasehold-housekeeping"); // so it is still due
        clock.tick("leasehold-housekeeping"); // it ran: not due again before tmp-max-age has passed
        assertEquals(List.of(true, true, false), upkeep.sweepsAsked);
    }
}
