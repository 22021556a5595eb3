package io.leasehold.command;

import io.leasehold.lease.BorrowedEpoch;
import io.leasehold.lease.LeaseStore;
import java.util.concurrent.CompletableFuture;
import org.jboss.logging.Logger;

/**
 * How {@code lease exec} comes to the epoch CMD acts under: whichever of its own lease (taken,
 * unleased, floor unusable) and its watch of the holder (borrowable, unreadable) speaks first decides,
 * once. A borrowed epoch going stale afterwards stops CMD.
 */
final class ExecDecision implements TakenLease.Listener, BorrowedEpoch.Listener {

    private static final Logger LOG = Logger.getLogger(ExecDecision.class);

    enum Kind { TAKEN, UNLEASED, BORROWED, REFUSED }

    /** {@code held}: the value borrowed (BORROWED only); {@code why}: why no CMD runs (REFUSED only). */
    record Verdict(Kind kind, LeaseStore.Versioned held, String why) {
    }

    private final CompletableFuture<Verdict> verdict = new CompletableFuture<>();
    private final CommandRun run;

    ExecDecision(CommandRun run) {
        this.run = run;
    }

    boolean made() {
        return verdict.isDone();
    }

    /** Waits for the decision. */
    Verdict await() {
        return verdict.join();
    }

    @Override
    public void taken() {
        verdict.complete(new Verdict(Kind.TAKEN, null, null));
    }

    @Override
    public void unleased() {
        verdict.complete(new Verdict(Kind.UNLEASED, null, null));
    }

    @Override
    public void floorUnusable(String why) {
        verdict.complete(new Verdict(Kind.REFUSED, null, "the lease cannot be taken: " + why));
    }

    @Override
    public boolean borrowable(LeaseStore.Versioned held) {
        return verdict.complete(new Verdict(Kind.BORROWED, held, null));
    }

    @Override
    public void readFailing(String why) {
        LOG.warn(why);
    }

    @Override
    public void unreadable(String why) {
        verdict.complete(new Verdict(Kind.REFUSED, null, why));
    }

    @Override
    public void stale(String why, long killAtNanos) {
        run.stop(why, killAtNanos);
    }
}
