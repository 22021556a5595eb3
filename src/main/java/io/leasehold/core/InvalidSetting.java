package io.leasehold.core;

/**
 * A setting that breaks a record's rule, with the configuration key to blame: the record's constructor
 * is the one place the rule lives, and the start-up check reports it by this key.
 */
public class InvalidSetting extends IllegalArgumentException {

    private final String key;
    private final String rule;

    public InvalidSetting(String key, String rule) {
        super(key + " " + rule);
        this.key = key;
        this.rule = rule;
    }

    public String key() {
        return key;
    }

    /** What the value must be, and what it was. */
    public String rule() {
        return rule;
    }
}
