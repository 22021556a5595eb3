package io.leasehold.app;

import io.leasehold.drain.ItemLogContext;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads of the controller lease, apart from Quarkus' worker pool: its steps, its bounded store calls
 * and what follows a loss. Uploads or blocking handlers that take every worker must not keep the holder
 * from renewing, or from noticing its deadline. A store call that hangs is abandoned at its bound while
 * its thread waits on, so this pool grows with such calls rather than queueing the next step behind them.
 */
@Singleton
public class LeaseThreads implements Executor {

    private final AtomicInteger count = new AtomicInteger();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(ItemLogContext.poolThread(r), "leasehold-lease-" + count.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    @Override
    public void execute(Runnable task) {
        threads.execute(task);
    }

    @PreDestroy
    void stop() {
        threads.shutdown();
    }
}
