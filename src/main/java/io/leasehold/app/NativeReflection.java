package io.leasehold.app;

import io.leasehold.lease.Holder;
import io.leasehold.lease.LeaseRecord;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types that Jackson reads and writes outside Quarkus REST (the lease value in NATS KV, and command
 * mode's output): a native image keeps their constructors and accessors only when told to.
 */
@RegisterForReflection(targets = {LeaseRecord.class, Holder.class})
public final class NativeReflection {

    private NativeReflection() {
    }
}
