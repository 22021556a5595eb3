package io.leasehold.directory;

import io.leasehold.spool.ItemState;
import io.leasehold.spool.SpoolContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The spool contract on a real directory, two PosixSpools on one folder tree. */
class PosixSpoolContractTest extends SpoolContract {

    private static final long MAX = 4L * 1024 * 1024;

    @TempDir
    Path dir;
    private SpoolLayout layout;

    @BeforeEach
    void createSpool() throws IOException {
        layout = new SpoolLayout(dir);
        layout.createFolders();
        mine = new PosixSpool(layout, new SpoolAnomalies(), clock, MAX);
        theirs = new PosixSpool(layout, new SpoolAnomalies(), clock, MAX);
    }

    /** As another program drops an item in: written in tmp/, renamed into pending/. */
    @Override
    protected void enqueue(String id, byte[] payload) throws IOException {
        Path tmp = layout.file(SpoolFolder.TMP, id);
        Files.write(tmp, payload);
        Files.move(tmp, layout.file(SpoolFolder.PENDING, id));
    }

    @Override
    protected Optional<String> state(String id) throws IOException {
        for (ItemState state : new ItemState[] {ItemState.PENDING, ItemState.DONE, ItemState.FAILED}) {
            if (Files.exists(layout.file(SpoolFolder.of(state), id))) {
                return Optional.of(state.label());
            }
        }
        try (var claims = Files.list(layout.folder(SpoolFolder.CLAIMED))) {
            return claims.anyMatch(p -> p.getFileName().toString().startsWith(id + "~"))
                    ? Optional.of(ItemState.CLAIMED.label()) : Optional.empty();
        }
    }
}
