package io.leasehold.command.items;

import io.leasehold.api.ItemsResource;
import io.leasehold.api.QueryTimes;
import io.leasehold.spool.ItemView;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;

/**
 * {@code items enqueue}: as {@code POST /items?id=&delay=|notBefore=}, the payload read from a file or stdin
 * and bounded by {@code leasehold.item.max-bytes}. Makes the spool's folders when missing, as the service does
 * at start: a spool may be filled before any instance runs.
 */
@Command(name = "enqueue", description = "Add an item, its payload read from FILE or stdin (-, or no FILE); it is "
        + "durably pending (or scheduled) when this returns.")
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

    @Override
    void check() {
        try {
            runAt = QueryTimes.runAt(notBefore, delay, Instant.now());
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
    void run(OpenSpool spool) throws IOException {
        String itemId = id == null ? spool.store.newId() : id;
        ItemView created;
        boolean stdin = file == null || file.equals("-");
        try (InputStream payload = stdin ? items.root.stdin() : Files.newInputStream(Path.of(file))) {
            created = spool.store.enqueue(itemId, payload, spool.maxBytes, runAt);
        }
        print(new ItemsResource.Created(created.id(), created.state(), created.runAt()),
                ItemTable.list(List.of(created), ""));
    }
}
