package io.leasehold.jetstream;

import java.io.IOException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Removes payload objects no ledger entry names: left by a crash between a purge's removal of the entry
 * and of its object, or by a batch that died after storing a payload and before staging its id. An
 * object is removed only when two sweeps in a row (a {@code spool.tmp-max-age} apart) found it named by
 * no entry and a fresh read of its item's entry agrees: a batch stores its payloads a moment before it
 * stages their ids, and one sweep's look could fall in between.
 *
 * <p>Not found here: chunks of an upload that died before its object's description was written (the
 * client writes that last); they stay in the payload stream until the bucket is purged by hand.
 */
final class OrphanPayloads {

    private static final Logger LOG = Logger.getLogger(OrphanPayloads.class);

    private final Ledger ledger;
    private final Payloads payloads;
    /** The names the previous sweep found named by no entry. */
    private Set<String> suspects = Set.of();

    OrphanPayloads(Ledger ledger, Payloads payloads) {
        this.ledger = ledger;
        this.payloads = payloads;
    }

    /** One sweep; answers how many objects it removed. */
    synchronized int sweep() throws IOException {
        MirrorCopy picture = ledger.mirror().copy();
        Set<String> unnamed = new HashSet<>();
        for (String name : payloads.names()) {
            Optional<String> id = Payloads.idOf(name);
            if (id.isPresent() && !picture.names(id.get(), name)) {
                unnamed.add(name);
            }
        }
        int removed = 0;
        for (String name : unnamed) {
            if (suspects.contains(name) && !namedNow(Payloads.idOf(name).orElseThrow(), name)) {
                payloads.delete(name);
                removed++;
            }
        }
        suspects = unnamed;
        if (removed > 0) {
            LOG.infof("removed %d payload objects no ledger entry names", removed);
        }
        return removed;
    }

    private boolean namedNow(String id, String name) throws IOException {
        return ledger.read(id).map(seen -> name.equals(seen.entry().payload())).orElse(false);
    }
}
