package io.leasehold.directory;

import java.io.IOException;
import java.nio.file.Path;

/** fsync(2) of the directory itself. */
public final class PosixDirectorySync implements DirectorySync {

    @Override
    public void force(Path directory) throws IOException {
        SpoolLayout.forceDirectory(directory);
    }
}
