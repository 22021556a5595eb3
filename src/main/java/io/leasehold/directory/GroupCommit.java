package io.leasehold.directory;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Shares the syncs of one directory between the enqueues that wait for one (group commit). A caller that
 * has made its link asks for a sync that begins after its call; callers arriving while a sync runs join
 * the next round, which one of them runs for all as soon as the running one ends. So each caller returns
 * only after a sync that began after its link has completed, and N concurrent callers cost about two
 * syncs instead of N. A failed sync fails every caller of its round, each with the same error; the next
 * round is tried afresh.
 */
final class GroupCommit {

    /** One sync and the callers that wait for it. */
    private static final class Round {
        boolean finished;
        IOException failure;
    }

    private final Path directory;
    private final DirectorySync sync;
    private final Object lock = new Object();
    /** Taking callers; its sync has not begun. */
    private Round next;
    /** Its sync is under way. */
    private Round running;

    GroupCommit(Path directory, DirectorySync sync) {
        this.directory = directory;
        this.sync = sync;
    }

    /** Returns once a sync of the directory that began after this call has completed; throws its failure. */
    void awaitSync() throws IOException {
        Round mine;
        boolean runner = false;
        boolean interrupted = false;
        synchronized (lock) {
            if (next == null) {
                next = new Round();
            }
            mine = next;
            while (!mine.finished && running != null) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true; // the answer needs the sync's outcome: wait on, and say so after
                }
            }
            if (!mine.finished) {
                running = mine; // no sync runs: this caller runs its round's, for everyone in it
                next = null;
                runner = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (runner) {
            runRound(mine);
        }
        if (mine.failure != null) {
            throw new IOException("the sync of " + directory + " failed: " + mine.failure.getMessage(), mine.failure);
        }
    }

    private void runRound(Round round) {
        IOException failure = null;
        try {
            sync.force(directory);
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException(e.toString(), e);
        }
        synchronized (lock) {
            round.failure = failure;
            round.finished = true;
            running = null;
            lock.notifyAll();
        }
    }
}
