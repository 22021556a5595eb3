package io.leasehold.directory;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Forces a directory's entries to disk, so a link made into it survives a crash. A port of its own so
 * that a test can record when each sync began and ended beside the real fsync ({@link PosixDirectorySync}).
 */
public interface DirectorySync {

    void force(Path directory) throws IOException;
}
