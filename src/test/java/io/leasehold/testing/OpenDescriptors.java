package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The descriptors another process has open, read from {@code /proc/<pid>/fd} (costs that process none),
 * and a sampler that keeps the most seen while it runs: once a millisecond, so a peak shorter than that
 * can be missed (the service's log tells whether it ever ran out).
 */
public final class OpenDescriptors implements AutoCloseable {

    private final long pid;
    private final AtomicInteger most = new AtomicInteger();
    private volatile RuntimeException failed;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "descriptor-sampler");
        t.setDaemon(true);
        return t;
    });

    private OpenDescriptors(long pid) {
        this.pid = pid;
    }

    /** Starts sampling the descriptors of {@code pid}. */
    public static OpenDescriptors sample(long pid) {
        OpenDescriptors descriptors = new OpenDescriptors(pid);
        descriptors.most.set(count(pid));
        descriptors.sampler.scheduleAtFixedRate(descriptors::once, 1, 1, TimeUnit.MILLISECONDS);
        return descriptors;
    }

    private void once() {
        try {
            most.accumulateAndGet(count(pid), Math::max);
        } catch (RuntimeException e) {
            failed = e;
            throw e; // ends the sampling: most() reports it
        }
    }

    /** How many descriptors {@code pid} has open now; 0 once it is gone. */
    public static int count(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) fds.count();
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What {@code pid}'s descriptors are open on (paths, {@code socket:[…]}, {@code pipe:[…]}); empty once it is gone. */
    public static List<String> targets(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.map(OpenDescriptors::target).flatMap(Optional::stream).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<String> target(Path fd) {
        try {
            return Optional.of(Files.readSymbolicLink(fd).toString());
        } catch (IOException e) {
            return Optional.empty(); // closed since it was listed
        }
    }

    /** The most seen open at once since sampling started. */
    public int most() {
        if (failed != null) {
            throw new AssertionError("sampling " + this + " failed", failed);
        }
        return most.get();
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }

    @Override
    public String toString() {
        return "descriptors of " + pid;
    }
}
