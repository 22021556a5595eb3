package io.leasehold.lease;

import java.util.Optional;

/**
 * Where the controller lease is kept: one key with revisions that only grow, and writes that succeed
 * only at the revision the writer last saw. Every method is one blocking call; the caller bounds it
 * with its own deadline and treats a call that did not answer in time as indeterminate.
 */
public interface LeaseStore {

    /** The live value and its revision; empty when the key was never written or was deleted. */
    Optional<Versioned> read() throws LeaseStoreException;

    /** Writes the value when the key has no live value; answers the new revision. */
    long create(LeaseRecord record) throws LeaseStoreException;

    /** Writes the value only if {@code revision} is still the key's latest; answers the new revision. */
    long update(LeaseRecord record, long revision) throws LeaseStoreException;

    /** Deletes the value only if {@code revision} is still the key's latest. */
    void delete(long revision) throws LeaseStoreException;

    /** The highest revision the store has issued so far, for any key (0 for a new store). */
    long lastRevision() throws LeaseStoreException;

    /**
     * Makes every revision issued from now on greater than {@code floor}, also across restarts, e.g.
     * after the store's data was wiped. Answers the revision the next write will get.
     */
    long moveRevisionsPast(long floor) throws LeaseStoreException;

    /** A value with the revision it was written at. */
    record Versioned(long revision, LeaseRecord record) {

        /** The holder's epoch: the value's, or this revision while the value still says 0 ("this write"). */
        public long epoch() {
            return record.epoch() != 0 ? record.epoch() : revision;
        }

        /** Who holds it, for a line: {@code instance on host at epoch N}. */
        public String described() {
            Holder h = record.holder();
            return h.instance() + " on " + h.host() + " at epoch " + epoch();
        }
    }
}
