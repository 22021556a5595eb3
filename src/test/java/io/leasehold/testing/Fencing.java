package io.leasehold.testing;

import io.leasehold.testing.ActLog.Act;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the acts of an {@link ActLog} show about fencing (docs/lease.md): for every two epochs e < e',
 * the last act of e comes strictly before the first act of e' — so epochs never go backwards and no
 * stale holder acts once the next one has begun. Acts under one epoch by several actors (a holder and a
 * {@code lease exec} borrowing its epoch) may overlap. Equal times (the clock's 10 ms steps) count as
 * not before.
 */
public final class Fencing {

    /** The acts of one epoch: first and last (uptime ms), how many, by whom. */
    public record Span(long epoch, long firstMillis, long lastMillis, int acts, TreeSet<String> who) {
    }

    /** One epoch to the next: the margin is the next one's first act minus this one's last. */
    public record Handover(Span from, Span to, List<Act> lateActs) {

        public long marginMillis() {
            return to.firstMillis() - from.lastMillis();
        }

        public boolean fenced() {
            return marginMillis() > 0;
        }

        @Override
        public String toString() {
            if (fenced()) {
                return String.format(Locale.ROOT, "epoch %d -> %d: margin %+d ms", from.epoch(), to.epoch(),
                        marginMillis());
            }
            TreeSet<String> late = new TreeSet<>();
            lateActs.forEach(a -> late.add(a.who()));
            return String.format(Locale.ROOT, "epoch %d -> %d: NOT FENCED, epoch %d acted %d ms after epoch %d's "
                    + "first act (%d acts at or after it, by %s; epoch %d by %s)", from.epoch(), to.epoch(),
                    from.epoch(), -marginMillis(), to.epoch(), lateActs.size(), late, to.epoch(), to.who());
        }
    }

    private final List<Span> spans;
    private final List<Handover> handovers;

    private Fencing(List<Span> spans, List<Handover> handovers) {
        this.spans = spans;
        this.handovers = handovers;
    }

    public static Fencing of(List<Act> acts) {
        TreeMap<Long, List<Act>> byEpoch = new TreeMap<>();
        acts.forEach(a -> byEpoch.computeIfAbsent(a.epoch(), e -> new ArrayList<>()).add(a));
        List<Span> spans = new ArrayList<>();
        byEpoch.forEach((epoch, list) -> {
            TreeSet<String> who = new TreeSet<>();
            list.forEach(a -> who.add(a.who()));
            spans.add(new Span(epoch, list.stream().mapToLong(Act::atMillis).min().orElseThrow(),
                    list.stream().mapToLong(Act::atMillis).max().orElseThrow(), list.size(), who));
        });
        // Consecutive pairs suffice: last(e1) < first(e2) <= last(e2) < first(e3) orders every pair.
        List<Handover> handovers = new ArrayList<>();
        for (int i = 1; i < spans.size(); i++) {
            Span from = spans.get(i - 1);
            Span to = spans.get(i);
            List<Act> late = byEpoch.get(from.epoch()).stream().filter(a -> a.atMillis() >= to.firstMillis()).toList();
            handovers.add(new Handover(from, to, late));
        }
        return new Fencing(List.copyOf(spans), List.copyOf(handovers));
    }

    public List<Span> spans() {
        return spans;
    }

    public List<Handover> handovers() {
        return handovers;
    }

    /** The handover from {@code epoch} to the next epoch that acted, if one did. */
    public java.util.Optional<Handover> after(long epoch) {
        return handovers.stream().filter(h -> h.from().epoch() == epoch).findFirst();
    }

    /** The smallest margin of any handover (negative: the worst overlap); empty with fewer than two epochs. */
    public OptionalLong minMarginMillis() {
        return handovers.stream().mapToLong(Handover::marginMillis).min();
    }

    /** Throws, naming every handover that is not fenced, unless all are. */
    public Fencing assertFenced(String context) {
        List<Handover> bad = handovers.stream().filter(h -> !h.fenced()).toList();
        if (!bad.isEmpty()) {
            throw new AssertionError(context + ": the last act of an epoch must come before the first act of the "
                    + "next: " + bad + "; all: " + this);
        }
        return this;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (Span s : spans) {
            out.append(String.format(Locale.ROOT, "[epoch %d: %d acts %.2f..%.2f s by %s] ", s.epoch(), s.acts(),
                    s.firstMillis() / 1000.0, s.lastMillis() / 1000.0, s.who()));
        }
        handovers.forEach(h -> out.append(h).append("; "));
        return out.toString().strip();
    }
}
