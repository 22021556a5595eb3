package io.leasehold.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/** A spool directory the benchmark fills and counts with plain file operations, as another program would. */
final class BenchSpool {

    static final String[] FOLDERS = {"tmp", "pending", "claimed", "done", "failed"};

    final Path root;

    BenchSpool(Path root) throws IOException {
        this.root = root;
        for (String folder : FOLDERS) {
            Files.createDirectories(root.resolve(folder));
        }
    }

    Path folder(String name) {
        return root.resolve(name);
    }

    static byte[] payload(int i) {
        return ("{\"n\":" + i + ",\"note\":\"benchmark item, handled by the log handler as a no-op\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static String id(String prefix, int i) {
        return prefix + "-" + i;
    }

    /** The way any producer enqueues: write the payload in tmp/, then rename it into pending/. */
    void enqueue(String id, byte[] payload) throws IOException {
        Path tmp = folder("tmp").resolve(id);
        Files.write(tmp, payload);
        Files.move(tmp, folder("pending").resolve(id), StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * What a durable enqueue costs the filesystem, and nothing more: write the payload to tmp/ and fsync it,
     * link it into pending/ (never replaces), unlink the tmp/ name, fsync pending/.
     */
    void enqueueDurably(String id, byte[] payload) throws IOException {
        Path tmp = folder("tmp").resolve(id);
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(payload));
            channel.force(true);
        }
        Files.createLink(folder("pending").resolve(id), tmp);
        Files.delete(tmp);
        try (FileChannel dir = FileChannel.open(folder("pending"), StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    /** Enqueues n items; returns the seconds it took. */
    double fill(String prefix, int n) throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            enqueue(id(prefix, i), payload(i));
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** Entries in a folder, read whole. */
    long count(String folder) {
        long n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder(folder))) {
            for (Path ignored : entries) {
                n++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return n;
    }

    /** Whether a folder has any entry; reads only the first block of a large folder. */
    boolean isEmpty(String folder) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder(folder))) {
            return !entries.iterator().hasNext();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes every entry of a folder (plain files only, as the benchmark leaves them). */
    void clear(String folder) throws IOException {
        if (!Files.isDirectory(folder(folder))) {
            return;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder(folder))) {
            for (Path entry : entries) {
                Files.delete(entry);
            }
        }
    }

    /**
     * An empty spool at {@code root}. When an earlier run left files there, measuring waits until ext4
     * stops treating their freed inodes as recently deleted (about 35 s): until then each new file's
     * inode costs a scan past them, which made one loop up to 5x slower than the same loop later.
     */
    static BenchSpool fresh(Path root) throws IOException {
        wipe(root);
        return new BenchSpool(root);
    }

    /**
     * Deletes {@code root} and all below it, then waits as {@link #fresh} does when there were files: a
     * benchmark with many spools wipes their common folder once, with one wait, and then makes each spool
     * with {@code new BenchSpool(...)}.
     */
    static void wipe(Path root) throws IOException {
        boolean hadFiles;
        try (Stream<Path> all = Files.exists(root) ? Files.walk(root) : Stream.empty()) {
            hadFiles = all.anyMatch(Files::isRegularFile);
        }
        if (Files.exists(root)) {
            try (Stream<Path> all = Files.walk(root)) {
                all.sorted(Comparator.reverseOrder()).forEach(BenchSpool::deleteOne);
            }
        }
        if (hadFiles) {
            // A benchmark's pause, not a test's wait: nothing to watch, only the kernel's clock to outlast.
            LockSupport.parkNanos(Duration.ofSeconds(40).toNanos());
        }
    }

    void delete() throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(BenchSpool::deleteOne);
        }
    }

    private static void deleteOne(Path p) {
        try {
            Files.delete(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
