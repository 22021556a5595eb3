package io.leasehold.jetstream;

import io.leasehold.spool.ItemStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The ledger kept in memory by one standing watch, so that counts, listings and the drain's look for
 * pending items cost nothing on the server however large the ledger grows (docs/jetstream-spool.md).
 * The watch is the doorbell too: listeners hear of each entry that became pending.
 *
 * <p>A watch is not promised to resume after a server restart, so the picture is made afresh on every
 * reconnect and whenever {@link #check()} finds the watch behind what the stream held a check earlier;
 * the old picture answers until the new one is whole. What it does not promise: another instance's move
 * shows after the watch's lag (milliseconds, or until the next check while a watch is stuck).
 */
final class LedgerMirror implements Ledger.Writes, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LedgerMirror.class);

    private final Ledger ledger;
    private final Duration firstWait;
    private final List<Consumer<String>> arrivals = new CopyOnWriteArrayList<>();
    private final List<Runnable> rebuilt = new CopyOnWriteArrayList<>();
    /** The watch whose whole picture answers; null until the first one has sent its initial values. */
    private volatile MirrorFeed answering;
    /** The watch feeding the newest picture, whole or still filling. */
    private volatile MirrorFeed newest;
    /** The stream's last sequence at the previous check: by this check the watch must have passed it. */
    private long lastAtCheck;
    /** The newest feed at the previous check, and how far it had delivered then. */
    private MirrorFeed checked;
    private long deliveredAtCheck;
    private volatile boolean closed;
    private final AtomicBoolean rebuildQueued = new AtomicBoolean();

    LedgerMirror(Ledger ledger, Duration firstWait) {
        this.ledger = ledger;
        this.firstWait = firstWait;
    }

    /** Starts the first watch; the picture is usable once its initial values are in. */
    void start() throws IOException {
        rebuild("start");
    }

    /** A whole picture, waiting up to the first wait for the first one; then the store counts as unreachable. */
    MirrorCopy copy() throws IOException {
        MirrorFeed now = answering;
        if (now != null) {
            return now.copy;
        }
        synchronized (this) {
            long deadline = System.nanoTime() + firstWait.toNanos();
            while (answering == null && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new ItemStore.SpoolUnavailableException("listing " + ledger.bucket()
                            + ": the ledger's watch sent no whole picture within " + firstWait, null);
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("listing " + ledger.bucket() + ": interrupted");
                }
            }
            if (answering == null) {
                throw new ItemStore.SpoolUnavailableException("the ledger " + ledger.bucket() + " is closed", null);
            }
            return answering.copy;
        }
    }

    /** The picture as it is, whole or not yet (null before the first watch answered): for gauges. */
    Optional<MirrorCopy> copyNow() {
        MirrorFeed now = answering;
        return now == null ? Optional.empty() : Optional.of(now.copy);
    }

    /** Tells of each id whose entry the watch saw become (or stay) pending. */
    void onArrival(Consumer<String> listener) {
        arrivals.add(listener);
    }

    void offArrival(Consumer<String> listener) {
        arrivals.remove(listener);
    }

    /** Told when a new picture replaced the old: arrivals in between may have gone untold. */
    void onRebuilt(Runnable listener) {
        rebuilt.add(listener);
    }

    void offRebuilt(Runnable listener) {
        rebuilt.remove(listener);
    }

    /** This instance's write, answered: shown at once, without waiting for the watch. */
    @Override
    public void wrote(String id, long revision, LedgerEntry entry) {
        for (MirrorCopy c : copies()) {
            c.wrote(id, revision, entry);
        }
        if (entry.pending()) {
            ring(id); // the watch will skip this write as known: ring for it here (a hand-back, a retry)
        }
    }

    private void ring(String id) {
        for (Consumer<String> a : arrivals) {
            a.accept(id);
        }
    }

    @Override
    public void removed(String id, long revision) {
        for (MirrorCopy c : copies()) {
            c.removed(id, revision);
        }
    }

    private List<MirrorCopy> copies() {
        MirrorFeed whole = answering;
        MirrorFeed filling = newest;
        if (filling == null || filling == whole) {
            return whole == null ? List.of() : List.of(whole.copy);
        }
        return whole == null ? List.of(filling.copy) : List.of(whole.copy, filling.copy);
    }

    /**
     * Makes the picture afresh when the watch has not delivered, by now, what the stream held at the
     * previous check (a watch that stopped), or when the newest watch, still sending its initial values,
     * sent nothing since the previous check. Called at every housekeeping; one request to the server.
     */
    synchronized void check() throws IOException {
        long last = ledger.lastSequence();
        MirrorFeed feed = newest;
        long deliveredNow = feed == null ? -1 : feed.copy.delivered();
        boolean sameFeed = feed != null && feed == checked;
        String stuck = null;
        if (feed == null) {
            stuck = "no watch";
        } else if (!feed.copy.complete()) {
            stuck = sameFeed && deliveredNow == deliveredAtCheck ? "the watch's initial values stopped coming" : null;
        } else if (sameFeed && deliveredNow < lastAtCheck) {
            stuck = "the watch stopped delivering (at " + deliveredNow + ", the ledger at " + last + ")";
        }
        checked = feed;
        deliveredAtCheck = deliveredNow;
        lastAtCheck = last;
        if (stuck != null) {
            rebuild(stuck);
        } else {
            feed.copy.forgetPassedRemovals();
        }
    }

    /**
     * Makes the picture afresh off the client's callback thread (a rebuild makes two requests), once for
     * any number of reconnects that come while one is queued: a storm of them is one or two rebuilds.
     */
    void reconnected() {
        if (!rebuildQueued.compareAndSet(false, true)) {
            return;
        }
        Thread rewatch = new Thread(() -> {
            rebuildQueued.set(false); // a reconnect from now on needs a rebuild of its own
            rebuildQuietly("reconnected");
        }, "leasehold-ledger-rewatch");
        rewatch.setDaemon(true);
        rewatch.start();
    }

    void rebuildQuietly(String why) {
        try {
            rebuild(why);
        } catch (IOException | RuntimeException e) {
            LOG.warnf("the ledger %s could not be watched afresh (%s): housekeeping tries again", ledger.bucket(),
                    e.getMessage());
        }
    }

    /** A new watch into a new picture; the one answering now goes on until the new one is whole. */
    synchronized void rebuild(String why) throws IOException {
        if (closed) {
            return;
        }
        long last = ledger.lastSequence();
        MirrorFeed whole = answering;
        // The running claims' starts survive a new picture: it alone would date them from their last renewal.
        MirrorFeed feed = new MirrorFeed(whole == null ? new MirrorCopy() : new MirrorCopy(whole.copy), last,
                ledger.bucket(), this::ring, this::whole);
        MirrorFeed before = newest;
        newest = feed;
        try {
            feed.subscribed(ledger.watch(feed));
        } catch (IOException e) {
            newest = before;
            throw e;
        }
        if (before != null && before != answering) {
            before.close(); // overtaken while still filling: nobody will read its picture, and it may never end
        }
        if (before != null) {
            LOG.infof("watching the ledger %s afresh: %s", ledger.bucket(), why);
        }
    }

    /** Called by a feed whose initial values are all in: it answers from now on, the one before is ended. */
    private void whole(MirrorFeed feed) {
        MirrorFeed retired;
        synchronized (this) {
            if (feed == answering) {
                return; // told twice (jnats can: the subscribing thread and the dispatcher): it answers already
            }
            if (feed != newest || closed) {
                retired = feed; // overtaken by a newer rebuild, or closed meanwhile
            } else {
                retired = answering;
                answering = feed;
                notifyAll();
            }
        }
        if (retired != null && retired != feed) {
            retired.close();
            for (Runnable r : rebuilt) {
                r.run();
            }
        } else if (retired == feed) {
            feed.close();
        }
    }

    @Override
    public void close() {
        MirrorFeed a;
        MirrorFeed n;
        synchronized (this) {
            closed = true;
            a = answering;
            n = newest;
            notifyAll();
        }
        if (a != null) {
            a.close();
        }
        if (n != null && n != a) {
            n.close();
        }
    }
}
