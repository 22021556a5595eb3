package io.leasehold.config;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import io.leasehold.core.InvalidSetting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** What one check found, each problem led by its key; all of them stop the start together, on one line. */
final class Problems {

    private final List<String> found = new ArrayList<>();

    void add(String key, String what) {
        found.add(key + " " + what);
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
            add(key, "must be positive, got " + value);
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
