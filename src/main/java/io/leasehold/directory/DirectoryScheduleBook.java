package io.leasehold.directory;

import io.leasehold.spool.Pause;
import io.leasehold.core.FireTimeIds;
import io.leasehold.spool.ScheduleBook;
import io.leasehold.spool.ScheduleBookText;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The schedules' book in {@code schedules/}: a mark is a file named {@code <name>~<fire time>}, and the
 * name is the whole mark. A new mark is written whole in tmp/ and renamed in under its own name, then the
 * older ones are removed; a reader takes the latest name there, so two instances moving one mark at once
 * (without a bus every instance fires) can leave two names for a moment, never a mark that went back. The
 * file holds the last item fired, for people; a mark whose file cannot be read still counts by its name.
 * A pause by hand is {@code <name>~pause}, replaced whole (docs/schedules.md, "In the spool").
 */
public final class DirectoryScheduleBook implements ScheduleBook {

    private static final String PAUSE = "pause";

    private final SpoolLayout layout;

    public DirectoryScheduleBook(SpoolLayout layout) {
        this.layout = layout;
    }

    @Override
    public Optional<Mark> mark(String name) throws IOException {
        for (int look = 1; ; look++) {
            List<Instant> marks = marks(name);
            if (marks.isEmpty()) {
                return Optional.empty();
            }
            Instant through = marks.get(marks.size() - 1);
            try {
                return Optional.of(new Mark(through, ScheduleBookText.fired(read(file(name, FireTimeIds.compact(through))))));
            } catch (NoSuchFileException e) {
                if (look == 3) { // replaced again and again while looked at: the name is the mark
                    return Optional.of(new Mark(through, null));
                }
                // Replaced by a later one between the listing and the read: list again.
            } catch (IOException | RuntimeException e) {
                return Optional.of(new Mark(through, null)); // the name alone is the mark: what it last fired is only shown
            }
        }
    }

    @Override
    public void advance(String name, Mark mark) throws IOException {
        List<Instant> before = marks(name);
        if (!before.isEmpty() && !before.get(before.size() - 1).isBefore(mark.through())) {
            return;
        }
        WrittenWhole.replace(layout, SpoolFolder.SCHEDULES, name + "~" + FireTimeIds.compact(mark.through()),
                ScheduleBookText.of(mark.lastFired()));
        for (Instant older : before) { // the new one is in: what it replaces may go
            Files.deleteIfExists(file(name, FireTimeIds.compact(older)));
        }
    }

    @Override
    public Optional<Pause> pause(String name) throws IOException {
        try {
            return Optional.of(ScheduleBookText.pause(read(file(name, PAUSE))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public void setPause(String name, Pause pause) throws IOException {
        WrittenWhole.replace(layout, SpoolFolder.SCHEDULES, name + "~" + PAUSE, ScheduleBookText.of(pause));
    }

    /** The fire times of {@code name}'s marks in the folder, oldest first; other entries are left alone. */
    private List<Instant> marks(String name) throws IOException {
        Path folder = layout.folder(SpoolFolder.SCHEDULES);
        List<Instant> found = new ArrayList<>();
        String prefix = name + "~";
        try (DirectoryStream<Path> entries = SpoolLayout.startingWith(folder, prefix)) {
            for (Path entry : entries) {
                FireTimeIds.parseCompact(entry.getFileName().toString().substring(prefix.length())).ifPresent(found::add);
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        found.sort(null);
        return found;
    }

    private static String read(Path file) throws IOException {
        return WrittenWhole.read(file);
    }

    private Path file(String name, String suffix) {
        return layout.file(SpoolFolder.SCHEDULES, name + "~" + suffix);
    }

}
