package io.leasehold.drain;

import io.leasehold.core.Clock;
import io.leasehold.spool.DrainSwitch;
import io.leasehold.spool.Pause;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The fleet's pause of the drain as this instance knows it: read from the store at every poll tick and drain
 * pass (so another instance's pause is obeyed within one poll interval), written through it by hand. While
 * it says paused no new attempt starts here; what is held runs, renews and settles.
 */
public final class DrainPause {

    private static final Logger LOG = Logger.getLogger(DrainPause.class);

    private final DrainSwitch store;
    private final Clock clock;
    private volatile Optional<Pause> known = Optional.empty();
    /** Why the last read failed, logged once until a read succeeds again. */
    private volatile String unreadable;

    public DrainPause(DrainSwitch store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** A store that is never paused, for a drain whose caller keeps no switch. */
    public static DrainPause never(Clock clock) {
        return new DrainPause(new DrainSwitch() {
            @Override
            public Optional<Pause> pause() {
                return Optional.empty();
            }

            @Override
            public void setPause(Pause pause) throws IOException {
                throw new IOException("this drain keeps no pause");
            }
        }, clock);
    }

    public boolean paused() {
        return known.map(Pause::paused).orElse(false);
    }

    /** The last pause or resume this instance read or made; empty when the drain was never paused. */
    public Optional<Pause> current() {
        return known;
    }

    /**
     * Reads the store (blocking). A read that fails keeps what was known: an instance that cannot read the
     * switch cannot claim either, most often, and a store that flickers must not undo a pause.
     */
    public void refresh() {
        try {
            learn(store.pause());
            if (unreadable != null) {
                LOG.infof("the drain's pause can be read again: %s", describe(known));
                unreadable = null;
            }
        } catch (IOException | RuntimeException e) {
            if (!Objects.equals(unreadable, e.getMessage())) {
                LOG.warnf("could not read the drain's pause, keeping what was known (%s): %s", describe(known), e.getMessage());
            }
            unreadable = String.valueOf(e.getMessage());
        }
    }

    /**
     * Pauses or resumes the drain for the whole fleet (blocking). A second pause, or resume, changes nothing,
     * its time and author included.
     */
    public Pause set(boolean paused, String by) throws IOException {
        Optional<Pause> now = store.pause();
        if (now.isPresent() && now.get().paused() == paused) {
            learn(now);
            return now.get();
        }
        Pause pause = new Pause(paused, clock.now(), by);
        store.setPause(pause);
        learn(Optional.of(pause));
        return pause;
    }

    private void learn(Optional<Pause> read) {
        Optional<Pause> before = known;
        known = read;
        boolean was = before.map(Pause::paused).orElse(false);
        if (paused() != was) {
            LOG.infof("%s", describe(read));
        }
    }

    /** The line each instance logs as it learns of a change (docs/operations.md quotes it). */
    static String describe(Optional<Pause> p) {
        if (p.isEmpty()) {
            return "the drain was never paused";
        }
        Pause pause = p.get();
        return pause.paused()
                ? "the drain is paused for the fleet since " + pause.since() + " by " + pause.by()
                        + ": no new attempt starts until it is resumed (POST /drain/resume, or leasehold drain resume)"
                : "the drain was resumed for the fleet at " + pause.since() + " by " + pause.by();
    }
}
