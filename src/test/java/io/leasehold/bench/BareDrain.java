package io.leasehold.bench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The drain's file operations with nothing else: the reference the service's drain is measured
 * against, in the same run on the same filesystem. Two loops:
 *
 * <ul>
 *   <li>{@link #protocol}: per item, every system call the claim protocol needs for a new item
 *       dropped into pending/ of a spool whose settled items are all reserved (see docs/protocol.md):
 *       the look at pending/&lt;id&gt;; the reservation (one symlink to the inode number); the records
 *       looked for (attempts/&lt;id&gt;, once, carefully); the claim's rename; the payload read (look,
 *       open, look, read to the end); one renewal's rename; the settlement (look, the time stamp, link
 *       into done/, unlink the claim, records looked for; on Java 22+ the time stamp by one utimensat and the
 *       link and unlink by one renameat2, as the service makes them there). What the service adds on top is its own
 *       cost: threads, bookkeeping, events.
 *   <li>{@link #renames}: only the three renames (claim, renewal, settle), as a plain file consumer
 *       would do them with no reservation, no records and no link: what the disk allows at all.
 * </ul>
 */
final class BareDrain {

    record Run(double seconds, long cpuNanos, int items) {
        double rate() {
            return items / seconds;
        }

        double cpuMicrosPerItem() {
            return cpuNanos / 1e3 / items;
        }
    }

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    /** The settlement's calls the service makes on this JDK, unless {@code -Dbench.linux-calls=false} turns them off in both. */
    static final java.util.Optional<io.leasehold.directory.linux.LinuxCalls> LINUX =
            Boolean.parseBoolean(System.getProperty("bench.linux-calls", "true"))
                    ? io.leasehold.directory.linux.LinuxCalls.load() : java.util.Optional.empty();
    private static final String READING_1 = "~1-k3x9q~20261130T150000.123Z";
    private static final String READING_2 = "~1-k3x9q~20261130T150040.123Z";

    private BareDrain() {
    }

    /** The protocol's operations on every id, split over {@code threads} threads. */
    static Run protocol(BenchSpool spool, List<String> ids, int threads) {
        return split(ids, threads, id -> protocolItem(spool, id));
    }

    /** The three renames of every id, split over {@code threads} threads. */
    static Run renames(BenchSpool spool, List<String> ids, int threads) {
        return split(ids, threads, id -> threeRenames(spool, id));
    }

    private static void threeRenames(BenchSpool spool, String id) throws IOException {
        Path claimed = spool.folder("claimed").resolve(id + READING_1);
        Path renewed = spool.folder("claimed").resolve(id + READING_2);
        Files.move(spool.folder("pending").resolve(id), claimed, StandardCopyOption.ATOMIC_MOVE);
        Files.move(claimed, renewed, StandardCopyOption.ATOMIC_MOVE);
        Files.move(renewed, spool.folder("done").resolve(id), StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The protocol loop on items as they arrive: a producer drops {@code n} items as fast as it can
     * (write in tmp/, rename into pending/), {@code threads} consumer threads work each as soon as it is
     * there. Timed from the first drop to the last settlement; CPU is the consumers' alone.
     */
    static Run protocolWhileArriving(BenchSpool spool, String prefix, int n, int threads) {
        return whileArriving(spool, prefix, n, threads, id -> protocolItem(spool, id));
    }

    /** As {@link #protocolWhileArriving}, each item given only the three renames of {@link #renames}. */
    static Run renamesWhileArriving(BenchSpool spool, String prefix, int n, int threads) {
        return whileArriving(spool, prefix, n, threads, id -> threeRenames(spool, id));
    }

    private static Run whileArriving(BenchSpool spool, String prefix, int n, int threads, Step step) {
        String end = "";
        BlockingQueue<String> arrived = new LinkedBlockingQueue<>();
        AtomicLong cpu = new AtomicLong();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread[] consumers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            consumers[t] = new Thread(() -> {
                long before = CPU.getCurrentThreadCpuTime();
                try {
                    for (String id = arrived.take(); !id.equals(end); id = arrived.take()) {
                        step.on(id);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (IOException | RuntimeException e) {
                    failed.compareAndSet(null, e);
                }
                cpu.addAndGet(CPU.getCurrentThreadCpuTime() - before);
            }, "bare-consumer-" + t);
        }
        long start = System.nanoTime();
        for (Thread c : consumers) {
            c.start();
        }
        try {
            for (int i = 0; i < n; i++) {
                String id = BenchSpool.id(prefix, i);
                spool.enqueue(id, BenchSpool.payload(i));
                arrived.add(id);
            }
            for (int t = 0; t < threads; t++) {
                arrived.add(end);
            }
            for (Thread c : consumers) {
                c.join();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (failed.get() != null) {
            throw new IllegalStateException("a bare consumer failed", failed.get());
        }
        return new Run((System.nanoTime() - start) / 1e9, cpu.get(), n);
    }

    private static void protocolItem(BenchSpool spool, String id) throws IOException {
        Path pending = spool.folder("pending").resolve(id);
        Map<String, Object> item = look(pending);
        // the reservation of a dropped-in id, on a spool whose settled items are all reserved: one symlink(2)
        Files.createSymbolicLink(spool.folder("ids").resolve(id), Path.of(item.get("ino").toString()));
        if (lookForRecords(spool, id)) { // looked for once, carefully, before the claim
            throw new IllegalStateException(id + " has records");
        }
        Path claimed = spool.folder("claimed").resolve(id + READING_1);
        Files.move(pending, claimed, StandardCopyOption.ATOMIC_MOVE);
        // the payload, read as the drain reads it: looked at, opened without following, looked at again
        look(claimed);
        try (FileChannel in = FileChannel.open(claimed, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            look(claimed);
            java.nio.channels.Channels.newInputStream(in).readNBytes(1024 * 1024 + 1);
        }
        Path renewed = spool.folder("claimed").resolve(id + READING_2);
        Files.move(claimed, renewed, StandardCopyOption.ATOMIC_MOVE);
        // the settlement: looked at, dated, linked into done/, its claim name unlinked, records looked for
        look(renewed);
        if (LINUX.isPresent()) { // as the service settles where it can: one utimensat, one renameat2
            int times = LINUX.get().setTimesNoFollow(renewed, java.time.Instant.now());
            int moved = LINUX.get().renameNoReplace(renewed, spool.folder("done").resolve(id));
            if (times != 0 || moved != 0) {
                throw new IOException("utimensat or renameat2 of " + renewed + ": errno " + times + ", " + moved);
            }
        } else {
            FileTime now = FileTime.fromMillis(System.currentTimeMillis());
            Files.getFileAttributeView(renewed, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(now, now, null);
            Files.createLink(spool.folder("done").resolve(id), renewed);
            if (!renewed.toFile().delete()) {
                throw new IOException("could not unlink " + renewed);
            }
        }
        if (spool.folder("attempts").resolve(id).toFile().exists()) {
            throw new IllegalStateException(id + " has records");
        }
    }

    private static Map<String, Object> look(Path path) throws IOException {
        return Files.readAttributes(path, "unix:ino,nlink,size,isRegularFile,fileKey", LinkOption.NOFOLLOW_LINKS);
    }

    /** The claim's careful look at attempts/&lt;id&gt;: true when anything is there. */
    private static boolean lookForRecords(BenchSpool spool, String id) throws IOException {
        try {
            look(spool.folder("attempts").resolve(id));
            return true;
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        }
    }

    @FunctionalInterface
    private interface Step {
        void on(String id) throws IOException;
    }

    private static Run split(List<String> ids, int threads, Step step) {
        AtomicLong cpu = new AtomicLong();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int first = t;
            workers[t] = new Thread(() -> {
                long before = CPU.getCurrentThreadCpuTime();
                try {
                    for (int i = first; i < ids.size(); i += threads) {
                        step.on(ids.get(i));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                cpu.addAndGet(CPU.getCurrentThreadCpuTime() - before);
            }, "bare-" + t);
        }
        long start = System.nanoTime();
        for (Thread w : workers) {
            w.start();
        }
        try {
            for (Thread w : workers) {
                w.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new Run((System.nanoTime() - start) / 1e9, cpu.get(), ids.size());
    }
}
