package io.leasehold.app;

import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseRecord;
import io.leasehold.core.HandlerOutput;
import io.leasehold.spool.AttemptOutput;
import io.leasehold.spool.AttemptRecord;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types that Jackson reads and writes outside Quarkus REST (the lease value in NATS KV, the JetStream
 * spool's ledger entries and the attempt records in them, attempts' outputs, and command mode's output): a native image
 * keeps their constructors and accessors only when told to.
 */
@RegisterForReflection(targets = {LeaseRecord.class, Holder.class, AttemptRecord.class, AttemptRecord.Kind.class,
    AttemptOutput.class, HandlerOutput.Part.class},
        classNames = {"io.leasehold.jetstream.LedgerEntry", "io.leasehold.jetstream.BatchMarkers$Marker"})
public final class NativeReflection {

    private NativeReflection() {
    }
}
