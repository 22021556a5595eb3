package io.leasehold.drain;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records the drain's events in order, e.g. "lost:a", "settled:a:done". */
final class CountingEvents implements DrainEvents {

    final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public void claimed(String id) {
        seen.add("claimed:" + id);
    }

    @Override
    public void renewed(String id) {
        seen.add("renewed:" + id);
    }

    @Override
    public void tookOver(String id, int attempt) {
        seen.add("tookOver:" + id + ":" + attempt);
    }

    @Override
    public void lost(String id) {
        seen.add("lost:" + id);
    }

    @Override
    public void attempted(String id, String outcome, Duration took) {
        seen.add("attempted:" + id + ":" + outcome);
    }

    @Override
    public void settled(String id, AttemptEnd where) {
        seen.add("settled:" + id + ":" + where.label());
    }

    @Override
    public void handedBack(String id) {
        seen.add("handedBack:" + id);
    }

    @Override
    public void settleFailed(String id, String error) {
        seen.add("settleFailed:" + id);
    }

    long count(String event) {
        return seen.stream().filter(event::equals).count();
    }
}
