package io.leasehold.app;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import sun.misc.Signal;

/**
 * Makes SIGTERM a clean stop with exit status 0 (docs/operations.md, Exit statuses). Left alone, the JVM answers SIGTERM
 * with status 143 even though Quarkus shuts down cleanly in its shutdown hook; a supervisor would
 * read that as a crash. Here SIGTERM asks Quarkus to exit(0) instead, which runs the same shutdown
 * (drain stop, hand-back) and then exits 0. Only for a launched service, never inside a test JVM.
 */
@Singleton
public class CleanStop {

    private static final Logger LOG = Logger.getLogger(CleanStop.class);

    void onStart(@Observes StartupEvent event) {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        try {
            Signal.handle(new Signal("TERM"), signal -> Quarkus.asyncExit(0));
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            LOG.debugf("SIGTERM keeps the JVM's default handling (exit status 143): %s", e.getMessage());
        }
    }
}
