package io.leasehold.config;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import io.leasehold.core.DurationText;
import io.leasehold.core.InvalidSetting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What one check found, each problem led by its key; all of them stop the start together, on one line. */
final class Problems {

    /** A duration as a rule quotes it ({@link DurationText}): the only values echoed as written. */
    private static final Pattern QUOTED_DURATION = Pattern.compile("-?\\d+(?:ns|ms|s|m|h)");

    private static final Pattern GOT = Pattern.compile("^(.*, got )(\\S+)$");
    private static final Pattern OWN = Pattern.compile("^\\((\\S+)\\)( .*)$");
    private static final Pattern OTHER_KEY = Pattern.compile("(leasehold\\.[a-z.-]+) \\((-?\\d+(?:ns|ms|s|m|h))\\)");

    private final List<String> found = new ArrayList<>();
    private final Function<String, Optional<String>> written;

    /** Problems whose values are quoted as the rules format them. */
    Problems() {
        this(key -> Optional.empty());
    }

    /** Problems whose duration values are quoted as {@code written} gives a key's value in its source. */
    Problems(Function<String, Optional<String>> written) {
        this.written = written;
    }

    void add(String key, String what) {
        found.add(key + " " + asWritten(key, what));
    }

    /**
     * The rule with the key's own duration as the operator wrote it ({@code 5000ms}, {@code PT-5S}), where
     * the rule quotes it as "(value) must ..." or "..., got value". Durations only: a URL or a token is
     * never echoed from its source, and the rules mask what must not be shown.
     */
    private String asWritten(String key, String what) {
        Optional<String> raw = rawOf(key);
        if (raw.isEmpty()) {
            return othersAsWritten(what);
        }
        Matcher got = GOT.matcher(what);
        if (got.matches() && QUOTED_DURATION.matcher(got.group(2)).matches()) {
            return got.group(1) + raw.get();
        }
        Matcher own = OWN.matcher(what);
        if (own.matches() && QUOTED_DURATION.matcher(own.group(1)).matches()) {
            return "(" + raw.get() + ")" + othersAsWritten(own.group(2));
        }
        return othersAsWritten(what);
    }

    /** The other keys a rule quotes as "leasehold.x (value)", each duration as its source writes it. */
    private String othersAsWritten(String what) {
        Matcher other = OTHER_KEY.matcher(what);
        StringBuilder out = new StringBuilder();
        while (other.find()) {
            String value = rawOf(other.group(1)).orElse(other.group(2));
            other.appendReplacement(out, Matcher.quoteReplacement(other.group(1) + " (" + value + ")"));
        }
        other.appendTail(out);
        return out.toString();
    }

    /** The key's value as written, unless it is a {@code ${...}} (its expansion is what the rule judged). */
    private Optional<String> rawOf(String key) {
        return written.apply(key).map(String::strip).filter(s -> !s.isEmpty() && !s.contains("${"));
    }

    /** A settings record built from the configuration; empty, and its refusal kept, when it breaks a rule. */
    <T> Optional<T> built(Supplier<T> record) {
        try {
            return Optional.of(record.get());
        } catch (InvalidSetting e) {
            add(e.key(), e.rule());
            return Optional.empty();
        }
    }

    void positive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            add(key, "must be positive, got " + DurationText.of(value));
        }
    }

    void atLeast(String key, int least, int value) {
        if (value < least) {
            add(key, "must be at least " + least + ", got " + value);
        }
    }

    void notBlank(String key, String value) {
        if (value.isBlank()) {
            add(key, "must not be blank");
        }
    }

    void notBlankWhenSet(String key, Optional<String> value) {
        if (value.filter(String::isBlank).isPresent()) {
            add(key, "must not be blank when set");
        }
    }

    void stopIfAny() {
        if (!found.isEmpty()) {
            throw new InvalidConfigException(String.join("; ", found));
        }
    }
}
