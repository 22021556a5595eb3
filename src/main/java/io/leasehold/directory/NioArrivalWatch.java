package io.leasehold.directory;

import io.leasehold.spool.ArrivalWatch;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * A directory watch on pending/ with the JDK's WatchService (inotify on Linux). A rename into the
 * folder is reported as a creation. One daemon thread for the life of the service.
 */
public final class NioArrivalWatch implements ArrivalWatch {

    private static final Logger LOG = Logger.getLogger(NioArrivalWatch.class);

    private final Path pending;
    private volatile WatchService service;

    public NioArrivalWatch(SpoolLayout layout) {
        this.pending = layout.folder(SpoolFolder.PENDING);
    }

    @Override
    public boolean start(Consumer<String> arrived, Runnable missed) {
        try {
            service = pending.getFileSystem().newWatchService();
            pending.register(service, StandardWatchEventKinds.ENTRY_CREATE);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.infof("no directory watch on %s (%s); new items are found by the poll", pending, e.getMessage());
            return false;
        }
        Thread thread = new Thread(() -> loop(arrived, missed), "leasehold-arrivals");
        thread.setDaemon(true);
        thread.start();
        return true;
    }

    private void loop(Consumer<String> arrived, Runnable missed) {
        WatchService watching = service;
        try {
            while (true) {
                WatchKey key = watching.take();
                for (WatchEvent<?> event : key.pollEvents()) {
                    if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
                        missed.run();
                    } else if (event.context() instanceof Path name) {
                        arrived.accept(name.toString());
                    }
                }
                if (!key.reset()) {
                    LOG.warnf("the watch on %s ended; new items are found by the poll", pending);
                    return;
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warnf(e, "the watch on %s failed; new items are found by the poll", pending);
            missed.run();
        }
    }

    @Override
    public void close() {
        WatchService watching = service;
        if (watching != null) {
            try {
                watching.close();
            } catch (IOException e) {
                LOG.debugf("closing the watch: %s", e.getMessage());
            }
        }
    }
}
