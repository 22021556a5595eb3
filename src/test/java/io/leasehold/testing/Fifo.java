package io.leasehold.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Named pipes for tests of files that must never be opened for reading (it would block with no writer). */
public final class Fifo {

    private Fifo() {
    }

    public static Path make(Path path) throws IOException {
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
        try {
            if (!mkfifo.waitFor(10, TimeUnit.SECONDS) || mkfifo.exitValue() != 0) {
                throw new IOException("mkfifo " + path + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return path;
    }
}
