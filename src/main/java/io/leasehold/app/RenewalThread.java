package io.leasehold.app;

import io.leasehold.drain.ItemLogContext;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The thread claim renewals run on, apart from Quarkus' worker pool: uploads that stall, blocking
 * handler beans and a burst of API calls can take every worker, and a renewal waiting behind them
 * would let a live claim expire. One thread is enough: a renewal pass is a rename per held claim,
 * and the renewal tick never starts a pass while the previous one runs.
 */
@Singleton
public class RenewalThread implements Executor {

    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(ItemLogContext.poolThread(r), "leasehold-renewals");
        t.setDaemon(true);
        return t;
    });

    @Override
    public void execute(Runnable task) {
        thread.execute(task);
    }

    @PreDestroy
    void stop() {
        thread.shutdown();
    }
}
