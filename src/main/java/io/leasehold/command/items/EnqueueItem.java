package io.leasehold.command.items;

import io.leasehold.wire.QueryTimes;
import io.leasehold.command.CommandConfig;
import io.leasehold.core.Clock;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;
import io.leasehold.wire.Created;

/**
 * {@code items enqueue}: as {@code POST /items?id=&delay=|notBefore=}, the payload read from a file or stdin
 * and bounded by {@code leasehold.item.max-bytes}. Makes the spool's folders when missing, as the service does
 * at start: a spool may be filled before any instance runs. The payload is read whole into a temporary file
 * outside the spool first: the store reserves the id and starts its file in {@code tmp/} when it is called,
 * and a Ctrl-C while a slow stdin is read would leave both behind (a signal runs no finally block).
 */
@Command(name = "enqueue", description = "Add an item, its payload read from FILE or stdin (-, or no FILE unless "
        + "stdin is a terminal); it is durably pending (or scheduled) when this returns.")
final class EnqueueItem extends SpoolAction {

    @ParentCommand
    ItemsCommand items;

    @Option(names = "--id", paramLabel = "ID", converter = Values.Id.class,
            description = "The item's id (default: a fresh time-ordered one).")
    String id;

    @Option(names = "--delay", paramLabel = "DURATION", description = "Not run before now plus this (PT30S, 30s, 90m, 7d).")
    String delay;

    @Option(names = "--not-before", paramLabel = "INSTANT",
            description = "Not run before this ISO-8601 instant (2026-12-01T15:30:00Z, or with an offset).")
    String notBefore;

    @Parameters(paramLabel = "FILE", arity = "0..1", description = "The payload's file; - or none: stdin.")
    String file;

    private Instant runAt;

    /** The payload as read, before the store is called. */
    private Path read;

    private boolean fromStdin() {
        return file == null || file.equals("-");
    }

    @Override
    void check(Clock clock) {
        if (file == null && items.root.stdinIsTerminal()) {
            throw usage("stdin is a terminal: give FILE, or - to type the payload");
        }
        try {
            runAt = QueryTimes.runAt(notBefore, delay, clock.now());
        } catch (IllegalArgumentException e) {
            // The API's message names its query parameters; here they are options.
            throw usage(e.getMessage().replace("notBefore", "--not-before").replaceAll("\\bdelay\\b", "--delay"));
        }
    }

    @Override
    boolean createsSpool() {
        return true;
    }

    @Override
    AutoCloseable prepare(CommandConfig config) throws IOException {
        long maxBytes = config.mapped().item().maxBytes().asLongValue();
        // Opened before the spool is made: a missing FILE makes no spool folders.
        try (InputStream in = fromStdin() ? items.root.stdin() : Files.newInputStream(Path.of(file))) {
            read = Files.createTempFile("leasehold-enqueue", ".payload");
            read.toFile().deleteOnExit(); // a Ctrl-C runs shutdown hooks, not the close below
            try (OutputStream out = Files.newOutputStream(read)) {
                copyAtMost(in, out, maxBytes);
            } catch (ItemStore.PayloadTooLargeException | FileSystemException e) {
                throw e;
            } catch (IOException e) {
                // A read's own error ("Is a directory") names no file: name it.
                throw fromStdin() ? e : new FileSystemException(file, null, e.getMessage());
            }
        } catch (IOException | RuntimeException e) {
            delete();
            throw e;
        }
        return this::delete;
    }

    /** Copies {@code in} to {@code out}; more than {@code maxBytes} is refused as the store refuses it. */
    private static void copyAtMost(InputStream in, OutputStream out, long maxBytes) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        for (int n; (n = in.read(buffer)) >= 0; ) {
            total += n;
            if (total > maxBytes) {
                throw new ItemStore.PayloadTooLargeException(maxBytes);
            }
            out.write(buffer, 0, n);
        }
    }

    private void delete() throws IOException {
        if (read != null) {
            Files.deleteIfExists(read);
        }
    }

    @Override
    void run(OpenSpool spool) throws IOException {
        String itemId = id == null ? spool.store.newId() : id;
        ItemView created;
        try (InputStream payload = Files.newInputStream(read)) {
            created = spool.store.enqueue(itemId, payload, spool.maxBytes, runAt);
        }
        print(new Created(created.id(), created.state(), created.runAt()),
                ItemTable.list(List.of(created), ""));
    }
}
