package io.leasehold.bench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The drain's file operations with nothing else: the reference the service's drain is measured
 * against, in the same run on the same filesystem. Two loops:
 *
 * <ul>
 *   <li>{@link #protocol}: per item, every system call the claim protocol needs for a new item
 *       dropped into pending/ (see docs/protocol.md): the look at pending/&lt;id&gt;; the reservation
 *       (ids/&lt;id&gt; looked for, done/ and failed/ looked at, ids/&lt;id&gt; created with the inode);
 *       the records looked for (attempts/&lt;id&gt;, reasons/&lt;id&gt;); the claim's rename; the payload
 *       read (look, open, look, read); one renewal's rename; the settlement (look, link into done/,
 *       unlink the claim) and the records looked for again. What the service adds on top is its own
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
        return split(ids, threads, id -> {
            Path claimed = spool.folder("claimed").resolve(id + READING_1);
            Path renewed = spool.folder("claimed").resolve(id + READING_2);
            Files.move(spool.folder("pending").resolve(id), claimed, StandardCopyOption.ATOMIC_MOVE);
            Files.move(claimed, renewed, StandardCopyOption.ATOMIC_MOVE);
            Files.move(renewed, spool.folder("done").resolve(id), StandardCopyOption.ATOMIC_MOVE);
        });
    }

    /**
     * The protocol loop on items as they arrive: a producer drops {@code n} items as fast as it can
     * (write in tmp/, rename into pending/), one consumer thread works each as soon as it is there.
     * Timed from the first drop to the last settlement; CPU is the consumer's alone.
     */
    static Run protocolWhileArriving(BenchSpool spool, String prefix, int n) {
        BlockingQueue<String> arrived = new LinkedBlockingQueue<>();
        AtomicLong cpu = new AtomicLong();
        Thread consumer = new Thread(() -> {
            long before = CPU.getCurrentThreadCpuTime();
            try {
                for (int i = 0; i < n; i++) {
                    protocolItem(spool, arrived.take());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            cpu.set(CPU.getCurrentThreadCpuTime() - before);
        }, "bare-consumer");
        long start = System.nanoTime();
        consumer.start();
        try {
            for (int i = 0; i < n; i++) {
                String id = BenchSpool.id(prefix, i);
                spool.enqueue(id, BenchSpool.payload(i));
                arrived.add(id);
            }
            consumer.join();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new Run((System.nanoTime() - start) / 1e9, cpu.get(), n);
    }

    private static void protocolItem(BenchSpool spool, String id) throws IOException {
        Path pending = spool.folder("pending").resolve(id);
        Map<String, Object> item = look(pending);
        // the reservation of an id nobody reserved: looked for, settled names looked at, then made
        File ids = spool.folder("ids").resolve(id).toFile();
        boolean reserved = ids.exists() | spool.folder("done").resolve(id).toFile().exists()
                | spool.folder("failed").resolve(id).toFile().exists();
        if (reserved) {
            throw new IllegalStateException(id + " is known already");
        }
        try (FileChannel reservation = FileChannel.open(ids.toPath(), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            reservation.write(ByteBuffer.wrap((item.get("ino") + "\n").getBytes(StandardCharsets.US_ASCII)));
        }
        lookForRecords(spool, id);
        Path claimed = spool.folder("claimed").resolve(id + READING_1);
        Files.move(pending, claimed, StandardCopyOption.ATOMIC_MOVE);
        lookForRecords(spool, id);
        // the payload, read as the drain reads it: looked at, opened without following, looked at again
        look(claimed);
        try (FileChannel in = FileChannel.open(claimed, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            look(claimed);
            in.read(ByteBuffer.allocate((int) in.size() + 1));
        }
        Path renewed = spool.folder("claimed").resolve(id + READING_2);
        Files.move(claimed, renewed, StandardCopyOption.ATOMIC_MOVE);
        look(renewed);
        Files.createLink(spool.folder("done").resolve(id), renewed);
        if (!renewed.toFile().delete()) {
            throw new IOException("could not unlink " + renewed);
        }
        lookForRecords(spool, id);
    }

    private static Map<String, Object> look(Path path) throws IOException {
        return Files.readAttributes(path, "unix:ino,nlink,size,isRegularFile,fileKey", LinkOption.NOFOLLOW_LINKS);
    }

    private static void lookForRecords(BenchSpool spool, String id) {
        if (spool.folder("attempts").resolve(id).toFile().exists()
                | spool.folder("reasons").resolve(id).toFile().exists()) {
            throw new IllegalStateException(id + " has records");
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
