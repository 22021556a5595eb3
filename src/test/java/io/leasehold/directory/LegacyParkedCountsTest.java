package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.core.HolderTag;
import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.SpoolCounts;
import io.leasehold.testing.DrivenClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A retry parked by an older build (its record in reasons/<id>, no attempts/<id>/) is retrying to every
 * reader: the census, a full count, and the listings.
 */
class LegacyParkedCountsTest {

    @TempDir
    Path dir;

    @Test
    void aRetryParkedByAnOlderBuildIsRetryingToTheCensusTheFullCountAndTheListings() throws Exception {
        DrivenClock clock = new DrivenClock();
        LeaseTerms terms = new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10));
        SpoolLayout layout = new SpoolLayout(dir);
        layout.createFolders();
        PosixSpool spool = new PosixSpool(layout, new SpoolAnomalies(), clock, 65536, HolderTag.named("mine"));
        PosixItemStore store = new PosixItemStore(layout, spool, terms, clock);
        try {
            Generation g = Generation.at(2);
            ClaimName claim = new ClaimName("old", g, clock.now().plus(Duration.ofMinutes(5)));
            Files.write(layout.claimFile(claim), new byte[] {1});
            Files.writeString(layout.file(SpoolFolder.REASONS, "old"), g + " 0\nbusy");

            store.recount();
            SpoolCounts census = store.countsNow();
            SpoolCounts full = store.fullCounts();
            List<ItemView> claimed = store.list(ItemState.CLAIMED, 100);
            assertEquals(full, census, "census and a full count agree");
            assertEquals(1, census.retrying(), census.toString());
            assertEquals(0, census.claimed(), census.toString());
            assertEquals(List.of(), claimed, "GET /items?state=claimed lists held claims only");
            assertEquals(List.of("old"), store.listParked(ItemView.RETRYING, 100).stream().map(ItemView::id).toList());
        } finally {
            store.close();
        }
    }
}
