package io.leasehold.command;

import java.util.List;
import org.jboss.logging.Logger;
import sun.misc.Signal;

/**
 * Passes SIGTERM, SIGINT and SIGHUP sent to {@code lease exec} on to CMD's process group, instead of
 * ending this JVM: CMD decides how to stop, and its exit status is still the one reported. (CMD is in a
 * session of its own, so a Ctrl-C at the terminal reaches it only this way.)
 */
final class SignalForwarding {

    private static final Logger LOG = Logger.getLogger(SignalForwarding.class);
    static final List<String> FORWARDED = List.of("TERM", "INT", "HUP");

    private SignalForwarding() {
    }

    static void to(CommandProcess child) {
        for (String name : FORWARDED) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    LOG.infof("passing SIG%s on to CMD (process group %d)", name, child.pgid());
                    child.signal(name);
                });
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // e.g. the JVM runs with -Xrs: the signal keeps its default effect on this JVM.
                LOG.warnf("SIG%s cannot be passed on to CMD: %s", name, e.getMessage());
            }
        }
    }
}
