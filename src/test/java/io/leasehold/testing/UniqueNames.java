package io.leasehold.testing;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A number no other call in this JVM answers: for names of files and folders that classes running at
 * the same time (four ITs at once) would otherwise both give the same instance name and millisecond.
 */
public final class UniqueNames {

    private static final AtomicLong NEXT = new AtomicLong();

    private UniqueNames() {
    }

    public static long next() {
        return NEXT.incrementAndGet();
    }
}
