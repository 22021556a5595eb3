package io.leasehold.jetstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.testing.DrivenClock;
import io.leasehold.testing.SharedNatsServer;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Payload objects no entry names are removed at the second sweep that finds them so, never the first,
 * and never one an entry names, on a real nats-server. The leftovers are staged as crashes leave them: an
 * object stored with no entry (a batch that died between its payload and its id), and an object whose
 * item was purged (a crash between the two removals).
 */
class OrphanPayloadsTest {

    @RegisterExtension
    static final SharedNatsServer NATS = new SharedNatsServer();
    private static final int LARGE = LedgerEntry.INLINE_MAX + 1;
    private static int buckets;
    private final DrivenClock clock = new DrivenClock();
    private InstanceRig rig;
    private Ledger ledger;
    private Payloads payloads;
    private JetStreamItemStore store;
    private OrphanPayloads orphans;

    @BeforeEach
    void open() throws Exception {
        rig = InstanceRig.open(NATS.server().url(), "orphans-" + ProcessHandle.current().pid() + "-" + ++buckets,
                1 << 20, clock, "a");
        ledger = rig.ledger;
        payloads = rig.payloads;
        store = rig.store;
        orphans = new OrphanPayloads(ledger, payloads);
    }

    @AfterEach
    void close() throws InterruptedException {
        rig.close();
    }

    private Set<String> stored() throws Exception {
        return new TreeSet<>(payloads.names());
    }

    @Test
    void anObjectNoEntryNamesGoesAtTheSecondSweepAndANamedOneStays() throws Exception {
        store.enqueue("kept", new ByteArrayInputStream(new byte[LARGE]), 1 << 20);
        String kept = ledger.read("kept").orElseThrow().entry().payload();
        payloads.put("ghost/dead-batch", new ByteArrayInputStream(new byte[10]), 1024);
        store.enqueue("purged", new ByteArrayInputStream(new byte[LARGE]), 1 << 20);
        String purged = ledger.read("purged").orElseThrow().entry().payload();
        store.cancel("purged");
        // The purge's first half only, as a crash leaves it: the entry gone, its object not.
        assertEquals(true, ledger.remove("purged", ledger.read("purged").orElseThrow()));
        assertEquals(new TreeSet<>(List.of(kept, "ghost/dead-batch", purged)), stored());

        assertEquals(0, orphans.sweep(), "the first sweep only suspects");
        assertEquals(3, stored().size());
        assertEquals(2, orphans.sweep());
        assertEquals(Set.of(kept), stored());
        assertEquals(0, orphans.sweep());
    }

    @Test
    void anObjectNamedBetweenTheTwoSweepsStays() throws Exception {
        // A batch's payload stored a moment before its id is staged: the first sweep falls in between.
        payloads.put("late/n1", new ByteArrayInputStream(new byte[10]), 1024);
        assertEquals(0, orphans.sweep());
        assertEquals(true, ledger.create("late", LedgerEntry.staged("batch-1", clock.now(), "late/n1")));
        assertEquals(0, orphans.sweep(), "named by its staged entry by now");
        assertEquals(Set.of("late/n1"), stored());
    }

    @Test
    void aNameOfNoItemIsLeftAlone() throws Exception {
        payloads.put("no-slash", new ByteArrayInputStream(new byte[3]), 1024);
        orphans.sweep();
        orphans.sweep();
        assertEquals(Set.of("no-slash"), stored(), "not a payload leasehold names: not ours to remove");
        assertEquals(0, store.counts().failed() + store.counts().pending(), "and no item came of it");
    }
}
