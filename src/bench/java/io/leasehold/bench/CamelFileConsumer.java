package io.leasehold.bench;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.support.processor.idempotent.MemoryIdempotentRepository;

/**
 * Apache Camel's file consumer, set up as a user would to take the files others drop into a folder, read
 * each, and move it to another folder once processed: the reference of issue 29 (the drain at 1.5x its rate
 * or better). A plain {@link DefaultCamelContext} in the benchmark's JVM, with one route that starts stopped:
 * {@link #start} and {@link #stop} start and stop the route around each pass, the context stays up, so its
 * classes stay warm.
 *
 * <p>The endpoint ({@link #OPTIONS}): {@code readLock=rename}, Camel's default marker file included
 * ({@code readLockMarkerFile=true}): per file, {@code <name>.camelLock} created (exclusively), the file renamed
 * to {@code <name>.camelExclusiveReadLock} and back, read, then on completion the marker deleted and the file
 * moved by {@code move=<spool>/done/${file:name}}. For throughput: {@code initialDelay=0} (the first poll at
 * once), {@code delay=10} (10 ms between polls instead of 500), {@code greedy=true} (poll again at once after a
 * poll that found files), {@code maxMessagesPerPoll=0} (no limit: a poll takes every file it lists) with
 * {@code eagerMaxMessagesPerPoll=true} (the default: no sorting pass), {@code readLockCheckInterval=10} (a
 * lock not granted is tried again after 10 ms, not 1 s), {@code idempotent=true} with a memory repository
 * that holds every name this consumer took ({@link #TAKEN}; Camel's default holds the last 1,000).
 *
 * <p>Why idempotent: with {@code threads(c)} a greedy poll lists pending/ while the pool is still finishing
 * files an earlier poll took; a file finished between that listing and the poll's look at it is no longer "in
 * progress", so the poll takes it again, and {@code readLock=rename} then retries renaming a file that is gone
 * every {@code readLockCheckInterval} until {@code readLockTimeout} (10 s), on the consumer's only thread. The
 * first smoke run without it stalled for 20 s to over 5 min per pass of 2,000 items at c=4 and c=8. With it
 * (eager: the name is added when listed) such a file is skipped at once. It changes nothing at c=1 but the
 * look-up, and every name here is new, so it is set in every row: one endpoint, only threads() differs.
 *
 * <p>Concurrency: Camel's file consumer is one thread per route (the scheduled poll). For more, the usual
 * way is Camel's Threads EIP after the consumer, {@code from(file:...).threads(c, c)}: the consumer thread
 * lists, takes the read lock and hands each exchange to a pool of {@code c} threads, which read the payload
 * and, as the exchange completes, move the file. Several routes on the same folder would compete for the same
 * files with only marker files and renames between them (the readLock option's docs warn that not every read
 * lock suits consumers competing for the same files), which is a different design, not more threads of the
 * same one. At concurrency 1 there is no threads() step.
 *
 * <p>Compiled only under {@code -Pbenchmark} (src/bench/java): see {@link ReferenceConsumer}.
 */
final class CamelFileConsumer implements ReferenceConsumer {

    /** The registry name of the idempotent repository, which holds up to a million names. */
    private static final String TAKEN = "taken";
    static final String OPTIONS = "readLock=rename&readLockCheckInterval=10&move=%s/${file:name}"
            + "&initialDelay=0&delay=10&greedy=true&maxMessagesPerPoll=0&eagerMaxMessagesPerPoll=true"
            + "&idempotent=true&idempotentRepository=#" + TAKEN;
    private static final String ROUTE = "reference-drain";

    private final CamelContext context = new DefaultCamelContext();
    private final AtomicLong read = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final String uri;
    private final int threads;

    CamelFileConsumer(Path spool, int threads) throws Exception {
        this.threads = threads;
        this.uri = "file:" + spool.resolve("pending") + "?" + String.format(OPTIONS, spool.resolve("done"));
        context.getRegistry().bind(TAKEN, MemoryIdempotentRepository.memoryIdempotentRepository(1_000_000));
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                RouteDefinition route = from(uri).routeId(ROUTE).autoStartup(false);
                ProcessorDefinition<?> work = threads > 1 ? route.threads(threads, threads) : route;
                work.process(CamelFileConsumer.this::handle);
            }
        });
        context.start();
    }

    /** The handler: reads the payload, as leasehold's handler is given it, and does nothing with it. */
    private void handle(Exchange exchange) {
        byte[] payload = exchange.getIn().getBody(byte[].class);
        if (payload == null || payload.length == 0) {
            failed.incrementAndGet();
            throw new IllegalStateException("no payload read from " + exchange.getIn().getHeader(Exchange.FILE_NAME));
        }
        read.incrementAndGet();
    }

    @Override
    public void start() {
        try {
            context.getRouteController().startRoute(ROUTE);
        } catch (Exception e) {
            throw new IllegalStateException("could not start " + uri, e);
        }
    }

    @Override
    public void stop() {
        try {
            context.getRouteController().stopRoute(ROUTE, 60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not stop " + uri, e);
        }
        if (failed.get() > 0) {
            throw new AssertionError(failed.get() + " items had no payload (Camel's log says which)");
        }
    }

    @Override
    public long itemsRead() {
        return read.get();
    }

    @Override
    public String describe() {
        return "Camel " + context.getVersion() + ": from(\"file:<spool>/pending?" + String.format(OPTIONS,
                "<spool>/done") + "\")" + (threads > 1 ? ".threads(" + threads + ", " + threads + ")" : "")
                + ".process(read the body as byte[])";
    }

    @Override
    public void close() {
        try {
            context.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not close Camel's context", e);
        }
    }
}
