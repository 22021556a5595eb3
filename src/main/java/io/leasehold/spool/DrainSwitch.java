package io.leasehold.spool;

import java.io.IOException;
import java.util.Optional;

/**
 * Whether the fleet may start new attempts: a pause of the drain by hand, kept in the store so that every
 * instance, and every restart, obeys it (docs/operations.md, "Pausing the drain"). Blocking.
 */
public interface DrainSwitch {

    /** The last pause or resume; empty when the drain was never paused on this store. */
    Optional<Pause> pause() throws IOException;

    /** Records a pause or resume for the whole fleet, replacing the one before. Durable when this returns. */
    void setPause(Pause pause) throws IOException;
}
