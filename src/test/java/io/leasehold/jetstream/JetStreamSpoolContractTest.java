package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.SpoolContract;
import io.leasehold.testing.SharedNatsServer;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The spool contract on a real nats-server (started by the test on a free port, its own store): two
 * instances, each with a connection of its own, on a fresh ledger and payload bucket per test.
 */
class JetStreamSpoolContractTest extends SpoolContract {

    private static final long MAX = 4L * 1024 * 1024;
    private static final LeaseTerms TERMS = new LeaseTerms(Duration.ofSeconds(120), 3, Duration.ofSeconds(10));
    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private Connection first;
    private Connection second;
    private JetStreamItemStore store;
    private Ledger otherLedger;

    @BeforeEach
    void openSpools() throws Exception {
        String bucket = "items-" + ProcessHandle.current().pid() + "-" + ++buckets;
        first = connect();
        second = connect();
        Ledger ledger = new Ledger(first, bucket, 1);
        Payloads payloads = new Payloads(first, bucket + "-payloads", 1, MAX);
        JetStreamSpool spool = new JetStreamSpool(ledger, payloads, clock, "a");
        store = new JetStreamItemStore(ledger, payloads, spool, TERMS, clock, InstanceRig.TMP_MAX_AGE);
        mine = spool;
        theirs = spool(second, bucket, "b");
        otherLedger = new Ledger(second, bucket, 1);
    }

    @AfterEach
    void close() throws InterruptedException {
        first.close();
        second.close();
    }

    private static Connection connect() throws IOException, InterruptedException {
        return Nats.connect(new Options.Builder().server(NATS.server().url()).connectionTimeout(Duration.ofSeconds(5))
                .build());
    }

    private JetStreamSpool spool(Connection connection, String bucket, String instance) throws IOException {
        return new JetStreamSpool(new Ledger(connection, bucket, 1), new Payloads(connection, bucket + "-payloads", 1,
                MAX), clock, instance);
    }

    /**
     * A spool moves its own claims from the entry as it last wrote it. When that entry is stale (someone
     * wrote the same claim meanwhile, here a record written straight into the ledger), the move is refused
     * at the stale revision, and the spool reads the entry again and moves from it: the claim is still its own.
     */
    @Test
    void aMoveFromAStaleRememberedEntryReadsAndGoesOn() throws Exception {
        enqueue("stale", new byte[] {1});
        ClaimName claim = mine.claim("stale", clock.now()).orElseThrow();
        Ledger.Seen now = otherLedger.read("stale").orElseThrow();
        AttemptRecord note = AttemptRecord.note(0, "written elsewhere");
        assertTrue(otherLedger.replace("stale", now,
                now.entry().withRecord(claim.generation(), note)));
        assertTrue(mine.restamp(claim, claim.renewedAt(clock.now().plusSeconds(40))),
                "renewed from a fresh read");
        assertEquals(Optional.of(note), theirs.record("stale", claim.generation()),
                "the record written meanwhile is kept");
        assertTrue(
                mine.settle(claim.renewedAt(clock.now().plusSeconds(40)), ItemState.DONE));
        assertEquals(Optional.of("done"), state("stale"));
    }

    @Test
    void aClaimedEntryThatNamesNoClaimIsLeftAloneAndTheOthersAreStillListed() throws Exception {
        otherLedger.kv().put("junk", "{\"state\":\"claimed\",\"generation\":\"nope\"}".getBytes());
        enqueue("real", new byte[] {1});
        ClaimName claim = mine.claim("real", clock.now()).orElseThrow();
        assertEquals(List.of(claim), theirs.claims(), "the junk entry is skipped, not fatal to the listing");
        assertEquals(Optional.empty(), theirs.find("junk", claim.generation()));
        assertEquals(Optional.empty(), theirs.claim("junk", clock.now()), "nor claimable");
    }

    @Override
    protected void enqueue(String id, byte[] payload) throws IOException {
        store.enqueue(id, new ByteArrayInputStream(payload), MAX);
    }

    @Override
    protected Optional<String> state(String id) throws IOException {
        return store.lookup(id).map(ItemView::state);
    }
}
