package io.leasehold.directory;

import io.leasehold.spool.DrainSwitch;
import io.leasehold.spool.Pause;
import io.leasehold.spool.ScheduleBookText;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Optional;

/** The drain's pause in {@code control/drain~pause}, replaced whole; no file is a drain never paused. */
public final class DirectoryDrainSwitch implements DrainSwitch {

    static final String FILE = "drain~pause";

    private final SpoolLayout layout;

    public DirectoryDrainSwitch(SpoolLayout layout) {
        this.layout = layout;
    }

    @Override
    public Optional<Pause> pause() throws IOException {
        try {
            return Optional.of(ScheduleBookText.pause(WrittenWhole.read(layout.file(SpoolFolder.CONTROL, FILE))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (RuntimeException e) {
            throw new IOException(layout.file(SpoolFolder.CONTROL, FILE) + " is not a pause written by leasehold: "
                    + e.getMessage() + "; remove it, then pause or resume again (POST /drain/pause or /drain/resume)", e);
        }
    }

    @Override
    public void setPause(Pause pause) throws IOException {
        WrittenWhole.replace(layout, SpoolFolder.CONTROL, FILE, ScheduleBookText.of(pause));
    }
}
