package io.leasehold.drain;

import io.leasehold.core.Clock;
import io.leasehold.spool.DrainSwitch;
import io.leasehold.spool.Pause;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The fleet's pause of the drain as this instance knows it: read from the store at start, at every poll tick
 * and during drain passes (so another instance's pause is obeyed within one poll interval), written through
 * it by hand. While it says paused no new attempt starts here; what is held runs, renews and settles. Until a
 * first read succeeds it says paused: an instance that cannot tell must not claim through a pause.
 */
public final class DrainPause {

    private static final Logger LOG = Logger.getLogger(DrainPause.class);

    private final DrainSwitch store;
    private final Clock clock;
    /** Null until a read or a write succeeded: not known, so held as paused. */
    private volatile Optional<Pause> known;
    /** Why the last read failed, logged once until a read succeeds again. */
    private volatile String unreadable = "not read yet";
    /** Counts this instance's writes: a read begun before one must not undo it. */
    private final AtomicLong writes = new AtomicLong();

    public DrainPause(DrainSwitch store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** A store that is never paused, for a drain whose caller keeps no switch. */
    public static DrainPause never(Clock clock) {
        DrainPause never = new DrainPause(new DrainSwitch() {
            @Override
            public Optional<Pause> pause() {
                return Optional.empty();
            }

            @Override
            public void setPause(Pause pause) throws IOException {
                throw new IOException("this drain keeps no pause");
            }
        }, clock);
        never.refresh();
        return never;
    }

    public boolean paused() {
        Optional<Pause> now = known;
        return now == null || now.map(Pause::paused).orElse(false);
    }

    /**
     * The last pause or resume this instance read or made; empty when the drain was never paused; before any
     * read succeeded, a pause "by" nobody that says why it is not known.
     */
    public Optional<Pause> current() {
        Optional<Pause> now = known;
        return now != null ? now : Optional.of(new Pause(true, null, "unknown: " + unreadable));
    }

    /**
     * Reads the store (blocking). A read that fails keeps what was known (a store that flickers must not undo
     * a pause); one begun before this instance wrote is not applied (it would undo the write).
     */
    public void refresh() {
        long before = writes.get();
        try {
            Optional<Pause> read = store.pause();
            synchronized (this) {
                if (writes.get() == before) {
                    learn(read);
                }
            }
            if (unreadable != null) {
                if (!unreadable.equals("not read yet")) {
                    LOG.infof("the drain's pause can be read again: %s", describe(known));
                }
                unreadable = null;
            }
        } catch (IOException | RuntimeException e) {
            if (!Objects.equals(unreadable, e.getMessage())) {
                LOG.warnf("could not read the drain's pause, %s: %s", known == null
                        ? "claiming nothing until it can be read" : "keeping what was known (" + describe(known) + ")",
                        e.getMessage());
            }
            unreadable = String.valueOf(e.getMessage());
        }
    }

    /**
     * Pauses or resumes the drain for the whole fleet (blocking). A second pause, or resume, changes nothing,
     * its time and author included; a record that cannot be read is replaced.
     */
    public Pause set(boolean paused, String by) throws IOException {
        Optional<Pause> now;
        try {
            now = store.pause();
        } catch (IOException | RuntimeException e) {
            LOG.warnf("the drain's pause could not be read, and is replaced: %s", e.getMessage());
            now = Optional.empty();
        }
        if (now.isPresent() && now.get().paused() == paused) {
            written(now);
            return now.get();
        }
        Pause pause = new Pause(paused, clock.now(), by);
        store.setPause(pause);
        written(Optional.of(pause));
        return pause;
    }

    private synchronized void written(Optional<Pause> pause) {
        writes.incrementAndGet();
        learn(pause);
        unreadable = null;
    }

    private void learn(Optional<Pause> read) {
        boolean first = known == null;
        boolean was = !first && paused();
        known = read;
        if (first ? paused() : paused() != was) { // at start only a pause is news
            LOG.infof("%s", describe(read));
        }
    }

    /** The line each instance logs as it learns of a change (docs/operations.md quotes it). */
    static String describe(Optional<Pause> p) {
        if (p == null || p.isEmpty()) {
            return "the drain was never paused";
        }
        Pause pause = p.get();
        return pause.paused()
                ? "the drain is paused for the fleet since " + pause.since() + " by " + pause.by()
                        + ": no new attempt starts until it is resumed (POST /drain/resume, or java -jar quarkus-run.jar drain resume)"
                : "the drain was resumed for the fleet at " + pause.since() + " by " + pause.by();
    }
}
