package io.leasehold.drain;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.Spool;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The real spool, with failures on demand that a disk cannot stage when a test wants them: the next
 * N calls of a method throw the given error (an IOException such as ENOSPC, a RuntimeException or an
 * Error) before touching any file. A real full disk is the business of a fault suite.
 */
final class FaultySpool implements Spool {

    /** An action on the real files right after a claim succeeded, e.g. a hostile hard link to it. */
    @FunctionalInterface
    interface AfterClaim {
        void run(ClaimName claim) throws IOException;
    }

    private record Fault(AtomicInteger left, Supplier<Throwable> error) {
    }

    private final Spool real;
    private final Map<String, Fault> faults = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> failed = new ConcurrentHashMap<>();
    volatile AfterClaim afterClaim = claim -> { };
    /** Runs as a hand-back is called, before any file moves (e.g. a move that waits out a dead link). */
    volatile AfterClaim beforeHandBack = claim -> { };
    /** Runs right after a hand-back landed in pending/, before it returns (e.g. a watch that reports it at once). */
    volatile AfterClaim afterHandBack = claim -> { };
    /** Runs once a payload was read, before it is returned (e.g. a stop that comes during the look). */
    volatile Runnable afterPayload = () -> { };
    /** Runs as a settlement in done/ is called, before any file moves (e.g. a settlement under way when a stop comes). */
    volatile AfterClaim beforeSettleDone = claim -> { };

    FaultySpool(Spool real) {
        this.real = real;
    }

    /** The next {@code times} calls of {@code method} (e.g. "settle", "writeRecord", "payload") throw. */
    FaultySpool failNext(String method, int times, Supplier<Throwable> error) {
        faults.put(method, new Fault(new AtomicInteger(times), error));
        return this;
    }

    /** How many calls of {@code method} have thrown so far. */
    int failures(String method) {
        return failed.getOrDefault(method, new AtomicInteger()).get();
    }

    private void maybeFail(String method) throws IOException {
        Fault fault = faults.get(method);
        if (fault == null || fault.left().getAndUpdate(n -> Math.max(0, n - 1)) <= 0) {
            return;
        }
        failed.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
        Throwable error = fault.error().get();
        if (error instanceof IOException io) {
            throw io;
        } else if (error instanceof RuntimeException runtime) {
            throw runtime;
        }
        throw (Error) error;
    }

    @Override
    public List<String> pendingBatch(int max) throws IOException {
        return real.pendingBatch(max);
    }

    @Override
    public Optional<ClaimName> claim(String id, Instant reading) throws IOException {
        Optional<ClaimName> claimed = real.claim(id, reading);
        if (claimed.isPresent()) {
            afterClaim.run(claimed.get());
        }
        return claimed;
    }

    @Override
    public boolean restamp(ClaimName from, ClaimName to) throws IOException {
        maybeFail("restamp");
        return real.restamp(from, to);
    }

    @Override
    public Optional<ClaimName> takeOver(ClaimName seen, Instant reading) throws IOException {
        maybeFail("takeOver");
        return real.takeOver(seen, reading);
    }

    @Override
    public Optional<ClaimName> find(String id, Generation generation) throws IOException {
        return real.find(id, generation);
    }

    @Override
    public List<ClaimName> claims() throws IOException {
        return real.claims();
    }

    @Override
    public Optional<byte[]> payload(ClaimName claim) throws IOException {
        maybeFail("payload");
        Optional<byte[]> payload = real.payload(claim);
        afterPayload.run();
        return payload;
    }

    @Override
    public boolean settle(ClaimName claim, ItemState where) throws IOException {
        maybeFail("settle");
        return real.settle(claim, where);
    }

    /** A settlement in done/ fails where any settlement would. */
    @Override
    public boolean settleDone(ClaimName claim, io.leasehold.spool.PastAttempt attempt) throws IOException {
        beforeSettleDone.run(claim);
        maybeFail("settle");
        return real.settleDone(claim, attempt);
    }

    @Override
    public boolean handBack(ClaimName claim) throws IOException {
        beforeHandBack.run(claim);
        maybeFail("handBack");
        boolean moved = real.handBack(claim);
        if (moved) {
            afterHandBack.run(claim);
        }
        return moved;
    }

    @Override
    public Optional<AttemptRecord> record(String id, Generation generation) throws IOException {
        return real.record(id, generation);
    }

    @Override
    public void writeRecord(String id, Generation generation, AttemptRecord record) throws IOException {
        maybeFail("writeRecord");
        real.writeRecord(id, generation, record);
    }

    @Override
    public void dropEarlierRecords(ClaimName claim) throws IOException {
        real.dropEarlierRecords(claim);
    }

    @Override
    public io.leasehold.core.HolderTag holderTag() {
        return real.holderTag();
    }
}
