package io.leasehold.spool;


import java.util.Locale;
import java.util.Optional;

/** Where an item is in its life: exactly one of these at any time. */
public enum ItemState {
    PENDING, CLAIMED, DONE, FAILED;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ItemState> parse(String text) {
        for (ItemState s : values()) {
            if (s.label().equals(text)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
