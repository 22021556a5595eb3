package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.leasehold.spool.Staleness;
import io.leasehold.spool.StagedBatch;
import io.leasehold.testing.Await;
import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.SharedNatsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A live batch that housekeeping rolled back under it is never answered as committed. */
class RolledBackBatchIsNotCommittedTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static int buckets;
    private final DrivenClock clock = new DrivenClock();
    private InstanceRig rig;

    @BeforeEach
    void open() throws Exception {
        rig = InstanceRig.open(NATS.server().url(), "review-" + ProcessHandle.current().pid() + "-" + ++buckets,
                1024, clock, "a");
    }

    @AfterEach
    void close() throws InterruptedException {
        rig.close();
    }

    private boolean present(String id) {
        try {
            return rig.ledger.read(id).isPresent();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The batch is still being read (or still awaiting its creates' answers) when it has been staged
     * longer than spool.tmp-max-age: another instance's housekeeping finds staged entries with no marker
     * and removes them. The commit then writes its marker, finds the entries gone, takes that for "turned
     * already" and answers every id as committed (201) although none of them exists.
     */
    @Test
    void aCommitWhoseStagedEntriesHousekeepingRemovedIsNotAnsweredAsCommitted() throws Exception {
        List<String> ids = List.of("h1", "h2", "h3");
        try (StagedBatch batch = rig.store.stageBatch(1024)) {
            for (int line = 1; line <= ids.size(); line++) {
                try (OutputStream out = batch.payload(line, ids.get(line - 1))) {
                    out.write(("payload " + line).getBytes());
                }
                batch.item(line, ids.get(line - 1));
            }
            for (String id : ids) {
                Await.until(id + " staged", Duration.ofSeconds(10), () -> present(id));
            }
            clock.advance(Duration.ofHours(2)); // the batch outlived tmp-max-age (1h) before its marker
            assertEquals(3, rig.store.recover(new Staleness(clock.now().minus(Duration.ofHours(1)), Duration.ZERO)), "housekeeping rolled it back");
            List<String> answered;
            try {
                answered = batch.commit();
            } catch (IOException refused) {
                batch.close();
                for (String id : ids) {
                    assertEquals(false, present(id), id + ": refused, and nothing of it is left");
                }
                assertEquals(List.of(), rig.payloads.names());
                return;
            }
            List<String> missing = new ArrayList<>();
            for (String id : answered) {
                if (!present(id)) {
                    missing.add(id);
                }
            }
            if (!missing.isEmpty()) {
                fail("commit answered " + answered + " as enqueued (201) but these do not exist: " + missing);
            }
        }
    }
}
