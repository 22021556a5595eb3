package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Acts under an epoch, as the processes that act record them: each act appends one line
 * {@code <epoch> <uptime> <who>} to one file shared by every process of a test (one short O_APPEND
 * write per line, so lines never interleave). The time is {@code /proc/uptime}: the kernel's
 * CLOCK_BOOTTIME, the same for every process on the machine, never stepped by NTP or libfaketime, read
 * by the shell's own {@code read} (no process started per act); its resolution is 10 ms. The test reads
 * the same clock with {@link #nowMillis()}. {@link Fencing} judges the acts.
 */
public final class ActLog {

    /** One act: its epoch ({@code LEASEHOLD_EPOCH}), when (uptime in ms, 10 ms steps) and who acted. */
    public record Act(long epoch, long atMillis, String who) {
    }

    /** How often a loop acts: often enough that its last act is within 50 ms of its end. */
    public static final Duration EVERY = Duration.ofMillis(50);
    /** A loop "until killed" still ends by itself after this, so a failed test leaves nothing acting. */
    static final Duration LOOP_CAP = Duration.ofMinutes(3);
    /** A CMD prefix: TERM is ignored (by the loop and what it starts), so only a KILL stops it. */
    public static final String IGNORE_TERM = "trap '' TERM; ";
    /** A CMD prefix: TERM ends it at once with status 42. */
    public static final String EXIT_42_ON_TERM = "trap 'exit 42' TERM; ";

    /** The who of a {@link #markTake} line, before the holder's name. */
    public static final String TAKE = "take-seen:";

    private final Path file;

    private ActLog(Path file) {
        this.file = file;
    }

    /** An empty act log {@code acts.log} in {@code dir}. */
    public static ActLog in(Path dir) {
        try {
            Path file = Files.createDirectories(dir).toAbsolutePath().resolve("acts.log");
            Files.writeString(file, "");
            return new ActLog(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path file() {
        return file;
    }

    /**
     * Shell (POSIX sh) that acts every {@link #EVERY} under {@code $LEASEHOLD_EPOCH} until it is killed;
     * {@code who} is a shell word naming the actor, e.g. {@code "$INSTANCE/$$"}.
     */
    public String loop(String who) {
        return acts(who, (int) (LOOP_CAP.toMillis() / EVERY.toMillis()));
    }

    /** Shell that acts {@code count} times, every {@link #EVERY}, then goes on with what follows. */
    public String acts(String who, int count) {
        if (file.toString().contains("'")) {
            throw new IllegalArgumentException("the act log's path is quoted with ' in shell: " + file);
        }
        return "i=0; while [ $i -lt " + count + " ]; do read up _ < /proc/uptime; echo \"$LEASEHOLD_EPOCH $up "
                + who + "\" >> '" + file + "'; i=$((i+1)); sleep "
                + java.math.BigDecimal.valueOf(EVERY.toMillis(), 3).toPlainString() + "; done; ";
    }

    /**
     * Records, as an act of {@code epoch} at {@code atMillis}, the moment the test saw a holder take it:
     * from then on that holder may act, so every act of an earlier epoch must come before it, even
     * when the holder's own first act comes later (a drain pass starts up to a poll-interval after the
     * take). The test sees a take a poll after it happened, so the mark is never early.
     */
    public void markTake(long epoch, long atMillis, String holder) {
        String line = epoch + " " + atMillis / 1000 + "." + String.format("%02d", atMillis % 1000 / 10) + " "
                + TAKE + holder + "\n";
        try {
            Files.writeString(file, line, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every complete line so far (a line being written is left for the next read), in file order. */
    public List<Act> read() {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Act> acts = new ArrayList<>();
        int end = text.lastIndexOf('\n');
        for (String line : text.substring(0, end + 1).split("\n")) {
            if (!line.isBlank()) {
                acts.add(parse(line));
            }
        }
        return acts;
    }

    /** The acts of one epoch. */
    public List<Act> of(long epoch) {
        return read().stream().filter(a -> a.epoch() == epoch).toList();
    }

    /** The last act so far, or null. */
    public Act last() {
        List<Act> all = read();
        return all.stream().max(java.util.Comparator.comparingLong(Act::atMillis)).orElse(null);
    }

    public Fencing fencing() {
        return Fencing.of(read());
    }

    static Act parse(String line) {
        String[] f = line.strip().split(" ", 3);
        if (f.length != 3) {
            throw new IllegalStateException("not an act line (epoch uptime who): '" + line + "'");
        }
        return new Act(Long.parseLong(f[0]), uptimeMillis(f[1]), f[2]);
    }

    /** Now on the acts' clock: /proc/uptime, in ms. */
    public static long nowMillis() {
        try {
            return uptimeMillis(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** "417.61" (seconds, two decimals) as 417610. */
    static long uptimeMillis(String uptime) {
        int dot = uptime.indexOf('.');
        if (dot < 0) {
            return Long.parseLong(uptime) * 1000;
        }
        String fraction = (uptime.substring(dot + 1) + "000").substring(0, 3);
        return Long.parseLong(uptime.substring(0, dot)) * 1000 + Long.parseLong(fraction);
    }
}
