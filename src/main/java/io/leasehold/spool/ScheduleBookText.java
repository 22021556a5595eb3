package io.leasehold.spool;

import io.leasehold.spool.ScheduleBook.Fired;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * How both backends write what the schedules' book holds beside a mark's name or key, and a pause ({@link Pause}): {@code key=value}
 * lines, one fact each, read back leniently (an unknown line is ignored, so a newer writer's additions do
 * not stop an older reader).
 */
public final class ScheduleBookText {

    private ScheduleBookText() {
    }

    public static String of(Fired fired) {
        if (fired == null) {
            return "";
        }
        return "fireTime=" + fired.fireTime() + "\nid=" + fired.id() + "\nepoch=" + fired.epoch() + "\nby="
                + oneLine(fired.by()) + "\nat=" + fired.at() + "\n";
    }

    /** The fired item written by {@link #of(Fired)}; null for a mark that fired nothing. */
    public static Fired fired(String text) {
        Map<String, String> v = lines(text);
        if (!v.containsKey("id")) {
            return null;
        }
        return new Fired(Instant.parse(v.get("fireTime")), v.get("id"), Long.parseLong(v.get("epoch")),
                v.getOrDefault("by", ""), Instant.parse(v.get("at")));
    }

    public static String of(Pause pause) {
        return "paused=" + pause.paused() + "\nsince=" + pause.since() + "\nby=" + oneLine(pause.by()) + "\n";
    }

    public static Pause pause(String text) {
        Map<String, String> v = lines(text);
        String paused = v.get("paused");
        if (!"true".equals(paused) && !"false".equals(paused)) {
            throw new IllegalArgumentException("not a pause: 'paused=' is neither true nor false");
        }
        return new Pause(Boolean.parseBoolean(paused), Instant.parse(v.get("since")), v.getOrDefault("by", ""));
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("[\\r\\n]", " ");
    }

    private static Map<String, String> lines(String text) {
        Map<String, String> v = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                v.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return v;
    }
}
