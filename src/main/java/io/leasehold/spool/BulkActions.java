package io.leasehold.spool;

import io.leasehold.core.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * Retry and purge of many settled items, for the API's bulk calls and for retention alike: the one place
 * that batches, whatever the backend. An {@link ItemStore#walkSettled walk} yields the items a page at a
 * time; each page of {@link #BATCH} is one step on the worker pool, whose moves run on {@link #PARALLEL}
 * workers at once; the next step is queued behind whatever else waits for the pool, so a million items
 * never hold a worker, memory or a lock for long. Every move is the single-item one ({@link ItemStore#retry},
 * {@link ItemStore#purge}), whose rename or compare-and-set decides against the drain and other bulk calls:
 * only moves that happened are counted, and an item another mover took first is passed over.
 */
public final class BulkActions {

    private static final Logger LOG = Logger.getLogger(BulkActions.class);

    /** Items looked at per step, and so at most moved per step. */
    public static final int BATCH = 250;
    /**
     * Workers that move one step's items at once: a JetStream move waits for the server (three round trips
     * for a retry), a directory move for the filesystem, so a few at once keep a 2-core machine busy
     * without taking the pool.
     */
    static final int PARALLEL = 4;

    /** What the bulk moves are counted into (metrics). */
    public interface Tally {
        Tally NONE = new Tally() {
            @Override
            public void retried(long n) {
            }

            @Override
            public void purged(ItemState state, long n) {
            }
        };

        void retried(long n);

        void purged(ItemState state, long n);
    }

    /** At most {@code maxMoves} moves, and no new step once {@code maxTime} has passed (on the clock's monotonic time). */
    public record Slice(long maxMoves, Duration maxTime) {
        public static final Slice WHOLE = new Slice(Long.MAX_VALUE, null);
    }

    /** How many moved, and whether the walk came to its end (false: the slice ran out first). */
    public record Outcome(long moved, boolean finished) {
    }

    @FunctionalInterface
    private interface Move {
        /** True when this call moved the item; false or a refusal when another mover had it first. */
        boolean apply(ItemStore.Settled item) throws IOException;
    }

    private final ItemStore store;
    private final Executor workers;
    private final Clock clock;
    private final Tally tally;

    public BulkActions(ItemStore store, Executor workers, Clock clock, Tally tally) {
        this.store = store;
        this.workers = workers;
        this.clock = clock;
        this.tally = tally;
    }

    /** Every failed item whose reason contains {@code reasonContains} (every one when null) back to pending. */
    public CompletionStage<Long> retryFailed(String reasonContains) {
        Predicate<ItemStore.Settled> wanted = reasonContains == null ? item -> true
                : item -> item.reason() != null && item.reason().contains(reasonContains);
        return run(ItemState.FAILED, reasonContains != null, wanted, item -> {
            store.retry(item.id());
            return true;
        }, Slice.WHOLE).thenApply(outcome -> {
            tally.retried(outcome.moved());
            return outcome.moved();
        });
    }

    /** Removes the items in {@code settled} that were settled before {@code before} (all when null), within {@code slice}. */
    public CompletionStage<Outcome> purge(ItemState settled, Instant before, Slice slice) {
        ItemStore.requireSettled(settled);
        Predicate<ItemStore.Settled> wanted = before == null ? item -> true : item -> item.settledAt().isBefore(before);
        return run(settled, false, wanted, item -> store.purge(item.id(), settled), slice).thenApply(outcome -> {
            tally.purged(settled, outcome.moved());
            return outcome;
        });
    }

    private CompletionStage<Outcome> run(ItemState state, boolean reasons, Predicate<ItemStore.Settled> wanted,
            Move move, Slice slice) {
        Run run = new Run(state, reasons, wanted, move, slice);
        workers.execute(run::step);
        return run.result;
    }

    /** One bulk action's walk and count, stepped on the workers one batch at a time. */
    private final class Run {
        final ItemState state;
        final boolean reasons;
        final Predicate<ItemStore.Settled> wanted;
        final Move move;
        final Slice slice;
        final CompletableFuture<Outcome> result = new CompletableFuture<>();
        final long began = clock.monotonicNanos();
        /** Touched by one step at a time: each step queues the next only when it is done. */
        ItemStore.SettledWalk walk;
        long moved;

        Run(ItemState state, boolean reasons, Predicate<ItemStore.Settled> wanted, Move move, Slice slice) {
            this.state = state;
            this.reasons = reasons;
            this.wanted = wanted;
            this.move = move;
            this.slice = slice;
        }

        void step() {
            try {
                if (walk == null) {
                    walk = store.walkSettled(state, reasons);
                }
                List<ItemStore.Settled> page = walk.next(BATCH);
                if (page.isEmpty()) {
                    end(true);
                    return;
                }
                List<ItemStore.Settled> chosen = new ArrayList<>(page.size());
                for (ItemStore.Settled item : page) {
                    if (chosen.size() < slice.maxMoves() - moved && wanted.test(item)) {
                        chosen.add(item);
                    }
                }
                moved += moveAll(chosen);
                if (moved >= slice.maxMoves() || timeIsUp()) {
                    end(false);
                    return;
                }
                workers.execute(this::step); // behind what else waits for a worker
            } catch (Throwable e) {
                closeWalk();
                result.completeExceptionally(e instanceof CompletionException c && c.getCause() != null
                        ? c.getCause() : e);
            }
        }

        private boolean timeIsUp() {
            return slice.maxTime() != null && clock.monotonicNanos() - began >= slice.maxTime().toNanos();
        }

        private void end(boolean finished) {
            closeWalk();
            result.complete(new Outcome(moved, finished));
        }

        private void closeWalk() {
            if (walk != null) {
                walk.close();
            }
        }

        /** The chosen items split among {@link #PARALLEL} workers, this one among them; how many moved. */
        private long moveAll(List<ItemStore.Settled> chosen) throws IOException {
            if (chosen.size() < 2 * PARALLEL) {
                return moveEach(chosen);
            }
            int share = (chosen.size() + PARALLEL - 1) / PARALLEL;
            List<CompletableFuture<Long>> others = new ArrayList<>();
            for (int from = share; from < chosen.size(); from += share) {
                List<ItemStore.Settled> part = chosen.subList(from, Math.min(chosen.size(), from + share));
                others.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return moveEach(part);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, workers));
            }
            long n = moveEach(chosen.subList(0, share));
            for (CompletableFuture<Long> other : others) {
                try {
                    n += other.join();
                } catch (CompletionException e) {
                    if (e.getCause() instanceof UncheckedIOException io) {
                        throw io.getCause();
                    }
                    throw e;
                }
            }
            return n;
        }

        private long moveEach(List<ItemStore.Settled> items) throws IOException {
            long n = 0;
            for (ItemStore.Settled item : items) {
                try {
                    if (move.apply(item)) {
                        n++;
                    }
                } catch (ItemStore.NoSuchItemException | ItemStore.WrongStateException e) {
                    // another mover (a drain, a cancel, another bulk call) had it first: not ours to count
                } catch (ItemStore.UnfitItemException | ItemStore.DuplicateItemException e) {
                    LOG.debugf("bulk %s of %s passed over: %s", state.label(), item.id(), e.getMessage());
                }
            }
            return n;
        }
    }
}
