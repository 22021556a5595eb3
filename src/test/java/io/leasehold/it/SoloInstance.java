package io.leasehold.it;

import io.leasehold.testing.ServiceProcess;
import io.leasehold.testing.SharedSpool;
import io.leasehold.testing.Tmpfs;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One packaged instance, "i1", alone on a {@link SharedSpool}, optionally on a {@link Tmpfs} of its own,
 * with the fault suite's short leases. Closing it stops the instance, its leftover handler processes
 * and then unmounts, in that order, so nothing keeps the mount busy.
 */
final class SoloInstance implements AutoCloseable {

    /** Short enough that a claim whose renewals stop is taken over within seconds. */
    static final Map<String, String> SHORT_LEASES = Map.of(
            "leasehold.claim.lease", "3s",
            "leasehold.claim.renewals-per-lease", "3",
            "leasehold.claim.max-skew", "500ms",
            "leasehold.drain.poll-interval", "1s",
            "leasehold.drain.concurrency", "2");

    final SharedSpool spool;
    private Tmpfs tmpfs;
    private ServiceProcess service;

    private SoloInstance(SharedSpool spool) {
        this.spool = spool;
    }

    /** A spool whose handler runs {@code work} (see {@link SharedSpool#create}); nothing started yet. */
    static SoloInstance create(String name, String work) {
        return new SoloInstance(SharedSpool.create(name, work));
    }

    /** Mounts a tmpfs of {@code size} on the spool directory before the instance starts. */
    Tmpfs onTmpfs(String size) {
        tmpfs = Tmpfs.mount(spool.spoolDir(), size);
        return tmpfs;
    }

    /** Starts the instance, its command run by {@code wrapper} (see {@link ServiceProcess#start}), and waits until ready. */
    ServiceProcess start(List<String> wrapper) {
        service = ServiceProcess.start("i1", spool.config(SHORT_LEASES), spool.env("i1"), wrapper)
                .awaitReady(Duration.ofSeconds(90));
        return service;
    }

    @Override
    public void close() {
        if (service != null) {
            service.close();
        }
        spool.killLeftoverAttempts();
        if (tmpfs != null) {
            tmpfs.close();
        }
    }
}
