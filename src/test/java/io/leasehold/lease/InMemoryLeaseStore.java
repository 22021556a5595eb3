package io.leasehold.lease;

import io.leasehold.lease.LeaseStoreException.Kind;
import io.leasehold.lease.ScriptedFaults.Fault;
import io.leasehold.lease.ScriptedFaults.Gate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The lease store in memory, for the state-machine tests: the same rules as {@link
 * io.leasehold.nats.NatsKvLeaseStore} on a real nats-server ({@link LeaseStoreContract} runs against
 * both), plus faults a test scripts per call kind and a log of every call.
 *
 * <p>Like a KV bucket's stream it has one revision counter that every write consumes (a delete too:
 * it leaves a tombstone), and a write at revision r succeeds only while r is the key's latest entry
 * (0 when the key has none), a tombstone included. {@link #wipe()} loses everything, as a wiped nats
 * store does: the bucket is gone until a read makes it again, and revisions start over at 0.
 * Thread-safe; a held call blocks outside the lock, so other calls go on meanwhile.
 */
public final class InMemoryLeaseStore implements LeaseStore {

    /** The kinds of call, for scripting faults and reading the log. */
    public enum Call { READ, CREATE, UPDATE, DELETE, LAST_REVISION, MOVE_REVISIONS_PAST }

    /** One call as made: what was asked and what it answered (a delete: its tombstone's revision), or the failure's kind. */
    public record Logged(Call call, String asked, String answered) {
        @Override
        public String toString() {
            return call + "(" + asked + ") -> " + answered;
        }
    }

    /** The key's latest entry: a value, or a tombstone (record null). */
    private record Entry(long revision, LeaseRecord record) {
    }

    @FunctionalInterface
    private interface Action<T> {
        T act() throws LeaseStoreException;
    }

    private final ScriptedFaults faults = new ScriptedFaults();
    private final List<Logged> log = new ArrayList<>();
    private long lastRevision;
    /** Null: the key has no entry (never written, or purged). */
    private Entry latest;
    private boolean bucketMissing;

    @Override
    public Optional<Versioned> read() throws LeaseStoreException {
        return call(Call.READ, "", () -> {
            // As the real store does: reading a missing bucket makes it again, empty.
            bucketMissing = false;
            return latest == null || latest.record() == null ? Optional.empty()
                    : Optional.of(new Versioned(latest.revision(), latest.record()));
        });
    }

    @Override
    public long create(LeaseRecord record) throws LeaseStoreException {
        return call(Call.CREATE, who(record), () -> {
            bucketPresent();
            if (latest != null && latest.record() != null) {
                throw refused(Kind.CONFLICT, "the key has a live value at revision " + latest.revision());
            }
            return write(record);
        });
    }

    @Override
    public long update(LeaseRecord record, long revision) throws LeaseStoreException {
        return call(Call.UPDATE, who(record) + " at " + revision, () -> {
            expectLatest(revision);
            return write(record);
        });
    }

    @Override
    public void delete(long revision) throws LeaseStoreException {
        call(Call.DELETE, "at " + revision, () -> {
            expectLatest(revision);
            return write(null);
        });
    }

    @Override
    public long lastRevision() throws LeaseStoreException {
        return call(Call.LAST_REVISION, "", () -> {
            bucketPresent();
            return lastRevision;
        });
    }

    @Override
    public long moveRevisionsPast(long floor) throws LeaseStoreException {
        return call(Call.MOVE_REVISIONS_PAST, "past " + floor, () -> {
            bucketPresent();
            if (lastRevision < floor) {
                // As a stream purge up to floor+1 does: every entry goes, the live value too.
                latest = null;
                lastRevision = floor;
            }
            return lastRevision + 1;
        });
    }

    /** The store's data is lost (e.g. the nats store wiped): no bucket until a read, revisions from 0. */
    public synchronized void wipe() {
        latest = null;
        lastRevision = 0;
        bucketMissing = true;
    }

    /** What {@code nats stream purge} does to the bucket: every entry gone, no tombstone, revisions kept. */
    public synchronized void purge() {
        latest = null;
    }

    /** The next call of this kind acts (a write lands) but its caller gets INDETERMINATE. */
    public void loseAnswerOfNext(Call call) {
        faults.script(call, new Fault(null, true, null, null));
    }

    /** The next call of this kind is refused as the bus refuses a user without the grant; nothing changes. */
    public void denyNext(Call call) {
        failNext(call, Kind.DENIED);
    }

    /** Every call of this kind is refused as DENIED until {@link #allow}. */
    public void deny(Call call) {
        faults.deny(call);
    }

    public void allow(Call call) {
        faults.allow(call);
    }

    /** The next call of this kind fails with that kind and changes nothing. */
    public void failNext(Call call, Kind kind) {
        faults.script(call, new Fault(kind, false, null, null));
    }

    /** The next call of this kind blocks before it acts (still on its way) until the gate is released. */
    public Gate holdNext(Call call) {
        Gate gate = new Gate();
        faults.script(call, new Fault(null, false, gate, null));
        return gate;
    }

    /** The next call of this kind acts at once but its answer waits until the gate is released. */
    public Gate holdAnswerOfNext(Call call) {
        Gate gate = new Gate();
        faults.script(call, new Fault(null, false, null, gate));
        return gate;
    }

    /** Every call so far, in the order they finished. */
    public synchronized List<Logged> log() {
        return List.copyOf(log);
    }

    public List<Call> calls() {
        return log().stream().map(Logged::call).toList();
    }

    private <T> T call(Call call, String asked, Action<T> action) throws LeaseStoreException {
        Fault fault = faults.take(call);
        try {
            if (fault.before() != null) {
                fault.before().pass(call);
            }
            if (fault.refusal() != null) {
                throw refused(fault.refusal(), "injected " + fault.refusal() + " of " + call
                        + (fault.refusal() == Kind.DENIED ? ": Permissions Violation" : ""));
            }
            T answer;
            synchronized (this) {
                answer = action.act();
            }
            if (fault.after() != null) {
                fault.after().pass(call);
            }
            if (fault.loseAnswer()) {
                throw refused(Kind.INDETERMINATE, "the answer to " + call + " was lost (it did act)");
            }
            logged(call, asked, String.valueOf(answer));
            return answer;
        } catch (LeaseStoreException e) {
            logged(call, asked, e.kind().toString());
            throw e;
        }
    }

    private synchronized void logged(Call call, String asked, String answered) {
        log.add(new Logged(call, asked, answered));
    }

    private void expectLatest(long revision) throws LeaseStoreException {
        bucketPresent();
        long latestRevision = latest == null ? 0 : latest.revision();
        if (latestRevision != revision) {
            throw refused(Kind.CONFLICT, "wrong last revision: " + latestRevision + ", not " + revision);
        }
    }

    /** Writes (record null: a tombstone) at the next revision and answers it. */
    private long write(LeaseRecord record) {
        latest = new Entry(++lastRevision, record);
        return lastRevision;
    }

    private void bucketPresent() throws LeaseStoreException {
        if (bucketMissing) {
            throw refused(Kind.INDETERMINATE, "the bucket does not exist (its data was wiped?)");
        }
    }

    private static String who(LeaseRecord record) {
        return record.holder() == null ? "nobody" : record.holder().instance();
    }

    private static LeaseStoreException refused(Kind kind, String message) {
        return new LeaseStoreException(kind, message, null);
    }
}
