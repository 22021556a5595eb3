package io.leasehold.drain;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Counts what the drain did, for drain-pass reports, and passes every event on. */
final class DrainTally implements DrainEvents {

    record Snapshot(long claimed, long tookOver, long done, long failed, long retried, long lost, long handedBack) {
    }

    private final DrainEvents next;
    private final AtomicLong claimed = new AtomicLong();
    private final AtomicLong tookOver = new AtomicLong();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong handedBack = new AtomicLong();

    DrainTally(DrainEvents next) {
        this.next = next;
    }

    Snapshot snapshot() {
        return new Snapshot(claimed.get(), tookOver.get(), done.get(), failed.get(), retried.get(), lost.get(),
                handedBack.get());
    }

    DrainReport since(Snapshot before, boolean idle, boolean paused, Duration budget) {
        Snapshot now = snapshot();
        return new DrainReport(now.claimed - before.claimed, now.tookOver - before.tookOver, now.done - before.done,
                now.failed - before.failed, now.retried - before.retried, now.lost - before.lost,
                now.handedBack - before.handedBack, idle, paused, budget.toMillis());
    }

    @Override
    public void claimed(String id) {
        claimed.incrementAndGet();
        next.claimed(id);
    }

    @Override
    public void renewed(String id) {
        next.renewed(id);
    }

    @Override
    public void tookOver(String id, int attempt) {
        tookOver.incrementAndGet();
        next.tookOver(id, attempt);
    }

    @Override
    public void lost(String id) {
        lost.incrementAndGet();
        next.lost(id);
    }

    @Override
    public void attempted(String id, String outcome, Duration took) {
        next.attempted(id, outcome, took);
    }

    @Override
    public void settled(String id, AttemptEnd where) {
        switch (where) {
            case DONE -> done.incrementAndGet();
            case FAILED -> failed.incrementAndGet();
            case RETRIED -> retried.incrementAndGet();
            case HANDED_BACK -> handedBack.incrementAndGet();
            default -> {
            }
        }
        next.settled(id, where);
    }

    @Override
    public void handedBack(String id) {
        next.handedBack(id);
    }

    @Override
    public void settleFailed(String id, String error) {
        next.settleFailed(id, error);
    }

    @Override
    public void outputNotKept(String id, int attempt, String error) {
        next.outputNotKept(id, attempt, error);
    }
}
