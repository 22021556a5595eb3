package io.leasehold.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The service processes a test started and the shared spools they worked on
 * ({@code @RegisterExtension final Instances instances = new Instances();}): after each test every
 * process is killed, whatever state it is in, and the handler processes its spools' work logs show
 * still running are killed too, so no test leaves anything behind for the next.
 */
public final class Instances implements AfterEachCallback {

    private final List<ServiceProcess> started = new ArrayList<>();
    private final List<SharedSpool> spools = new ArrayList<>();

    /** Keeps {@code process} to be stopped after the test; answers it. */
    public ServiceProcess add(ServiceProcess process) {
        started.add(process);
        return process;
    }

    /** Keeps {@code spool} to have its leftover attempts killed after the test; answers it. */
    public SharedSpool on(SharedSpool spool) {
        spools.add(spool);
        return spool;
    }

    /** Every process started so far, in order. */
    public List<ServiceProcess> all() {
        return Collections.unmodifiableList(started);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(ServiceProcess::close);
        started.clear();
        spools.forEach(SharedSpool::killLeftoverAttempts);
        spools.clear();
    }
}
