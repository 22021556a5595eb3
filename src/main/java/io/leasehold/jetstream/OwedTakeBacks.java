package io.leasehold.jetstream;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Take-backs this instance's enqueues owe: an enqueue that failed while NATS did not answer (a stalled or
 * restarting server) may have left its reservation in the ledger, the id known with no item. Each is paid
 * by the id's next enqueue here, before it reserves, and by every housekeeping pass (each minute), once
 * NATS answers again. Paying reads the entry and tells by the enqueue's own write tokens what landed: its
 * reservation is removed at the revision read (with its payload object), its commit is kept.
 */
final class OwedTakeBacks {

    private static final Logger LOG = Logger.getLogger(OwedTakeBacks.class);

    /** What one failed enqueue wrote or may have written: its payload's name and the tokens of its two writes. */
    record Owed(String payloadName, String reservedToken, String committedToken) {
    }

    private final Ledger ledger;
    private final Payloads payloads;
    private final Map<String, Owed> owed = new ConcurrentHashMap<>();

    OwedTakeBacks(Ledger ledger, Payloads payloads) {
        this.ledger = ledger;
        this.payloads = payloads;
    }

    void owe(String id, Owed what) {
        owed.put(id, what);
        LOG.warnf("the enqueue of '%s' failed and what it wrote cannot be checked now (NATS is not answering): the"
                + " next enqueue of it here, or housekeeping within a minute of NATS answering, takes its reservation"
                + " back, or keeps its item if its commit landed; until then other instances answer 409 for it", id);
    }

    /** Pays what the enqueues of {@code id} owe, if anything; throws when NATS cannot be asked now. */
    void pay(String id) throws IOException {
        Owed what = owed.get(id);
        if (what == null) {
            return;
        }
        Optional<Ledger.Seen> seen = ledger.read(id);
        if (seen.isPresent()) {
            LedgerEntry entry = seen.get().entry();
            if (entry.token().equals(what.committedToken())
                    || what.payloadName().equals(entry.payload()) && !entry.token().equals(what.reservedToken())) {
                owed.remove(id, what); // its commit landed after all: the item is there (the client got an error)
                LOG.infof("the failed enqueue of '%s' had landed after all: the item stays", id);
                return;
            }
            if (entry.token().equals(what.reservedToken()) && !ledger.remove(id, seen.get())) {
                return; // moved since it was read: looked at again at the next payment
            }
        }
        payloads.delete(what.payloadName()); // unique to that enqueue, and no entry names it now
        owed.remove(id, what);
        LOG.infof("the failed enqueue of '%s' was taken back: the id is free", id);
    }

    /** Pays every debt it can now; returns how many were paid. */
    int payAll() {
        int paid = 0;
        for (String id : owed.keySet()) {
            try {
                pay(id);
                paid += owed.containsKey(id) ? 0 : 1;
            } catch (IOException e) {
                // NATS still away: the next pass tries again
            }
        }
        return paid;
    }
}
