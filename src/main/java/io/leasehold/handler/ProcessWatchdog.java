package io.leasehold.handler;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * One POSIX shell started with the service, in a session of its own (so a kill of the service's
 * process group spares it), that reads "+pgid" and "-pgid" lines on a pipe from the JVM. When the
 * pipe ends, the JVM is gone (the kernel closes a dead process's descriptors, whatever killed it), and
 * the shell KILLs every group still registered, then exits. A clean stop ends the children first,
 * then closes the pipe: the watchdog finds nothing left and exits too. Plain ProcessBuilder and
 * {@code sh}: it works the same in a native binary.
 */
public final class ProcessWatchdog implements ChildGroups, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ProcessWatchdog.class);
    /** Marks the watchdog's command line, with the JVM's pid after it (tests and operators find it by these). */
    public static final String MARK = "leasehold-watchdog";
    // Only numbers above 1 are ever killed: a stray "-1" must never become kill -9 -1 (everything).
    static final String SCRIPT = String.join("\n",
            "groups=' '",
            "while IFS= read -r line; do",
            "  g=${line#?}",
            "  case $g in ''|*[!0-9]*|0|1) continue ;; esac",
            "  case $line in",
            "    +*) groups=\"$groups$g \" ;;",
            "    -*) case $groups in *\" $g \"*) groups=\"${groups%% $g *} ${groups#* $g }\" ;; esac ;;",
            "  esac",
            "done",
            "for g in $groups; do kill -9 \"-$g\" 2>/dev/null; done",
            "");

    private final Set<Long> groups = new LinkedHashSet<>();
    private Process shell;
    private OutputStream pipe;
    private boolean closed;

    private ProcessWatchdog() {
    }

    /** Starts the watchdog; throws when no shell can be started (then no exec child could run either). */
    public static ProcessWatchdog start() throws IOException {
        ProcessWatchdog watchdog = new ProcessWatchdog();
        synchronized (watchdog) {
            watchdog.launch();
        }
        return watchdog;
    }

    private void launch() throws IOException {
        shell = new ProcessBuilder("setsid", "/bin/sh", "-c", SCRIPT, MARK,
                Long.toString(ProcessHandle.current().pid()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        pipe = shell.getOutputStream();
        LOG.infof("exec children are watched by process %d: their process groups are killed if this service dies",
                shell.pid());
    }

    /** The watchdog's pid, for tests. */
    public synchronized long pid() {
        return shell.pid();
    }

    @Override
    public synchronized void register(long pgid) throws IOException {
        if (closed) {
            throw new IOException("the service is stopping: no new command is started");
        }
        groups.add(pgid);
        try {
            send("+" + pgid);
        } catch (IOException e) {
            // It died (killed by hand?): a new one takes over every group still registered.
            LOG.warnf("the exec watchdog %d is gone (%s); starting another", shell.pid(), e.getMessage());
            launch();
            for (long group : groups) {
                send("+" + group);
            }
        }
    }

    @Override
    public synchronized void deregister(long pgid) {
        if (groups.remove(pgid) && !closed) {
            try {
                send("-" + pgid);
            } catch (IOException e) {
                LOG.debugf("could not deregister %d (the watchdog is gone; the next start replaces it): %s", pgid,
                        e.getMessage());
            }
        }
    }

    private void send(String line) throws IOException {
        pipe.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        pipe.flush();
    }

    /** Ends the pipe: the watchdog KILLs what is still registered (nothing, after a clean stop) and exits. */
    @Override
    public void close() {
        Process ending;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            ending = shell;
            try {
                pipe.close();
            } catch (IOException e) {
                LOG.debugf("closing the watchdog's pipe: %s", e.getMessage());
            }
        }
        try {
            if (!ending.waitFor(5, TimeUnit.SECONDS)) {
                LOG.warnf("the exec watchdog %d did not exit", ending.pid());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
