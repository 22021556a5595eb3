package io.leasehold.command;

import java.util.List;
import org.jboss.logging.Logger;
import sun.misc.Signal;
import sun.misc.SignalHandler;

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

    /** From now on, these signals go to {@code run} (which passes them to CMD once it runs). */
    static void to(CommandRun run) {
        for (String name : FORWARDED) {
            try {
                SignalHandler before = Signal.handle(new Signal(name), signal -> run.signal(name));
                if (before == SignalHandler.SIG_IGN) {
                    // The JVM keeps a signal ignored since its start (e.g. SIGINT of a job started with '&'),
                    // and so does CMD, which inherited that: nothing to pass on, as for any background job.
                    LOG.infof("SIG%s was ignored when lease exec started: it stays ignored, also by CMD", name);
                }
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // e.g. the JVM runs with -Xrs: the signal keeps its default effect on this JVM.
                LOG.warnf("SIG%s cannot be passed on to CMD: %s", name, e.getMessage());
            }
        }
    }
}
