package io.leasehold.core;

import java.util.Locale;
import java.util.Optional;

/**
 * Who made a claim, carried in its nonce so that every instance can tell it from the name alone: a
 * nonce is {@code <tag><10 random characters>}, all of {@code [a-z0-9]}, at most 32. The tag is a short
 * form of the instance's name (host and pid); a nonce of 10 characters or fewer, as every older build
 * wrote, names no holder.
 */
public record HolderTag(String text) {

    /** Claims made without a tag (tests, tools): their nonces are the random part alone. */
    public static final HolderTag NONE = new HolderTag("");
    public static final int MAX_LENGTH = 22;
    /** The random part's length, fixed: what lies before it is the tag. */
    public static final int RANDOM_LENGTH = 10;

    public HolderTag {
        if (text.length() > MAX_LENGTH || !text.chars().allMatch(HolderTag::fits)) {
            throw new IllegalArgumentException("a holder tag is at most " + MAX_LENGTH + " of [a-z0-9], got " + text);
        }
    }

    /** {@code <host>p<pid>}, the host cut (never the pid) to fit and kept to [a-z0-9]: e.g. "web3p4711". */
    public static HolderTag of(String host, long pid) {
        String tail = "p" + pid;
        String kept = sanitized(host);
        int room = Math.max(0, MAX_LENGTH - tail.length());
        String tag = kept.substring(0, Math.min(room, kept.length())) + tail;
        return new HolderTag(tag.length() > MAX_LENGTH ? tag.substring(tag.length() - MAX_LENGTH) : tag);
    }

    /** Any name kept to [a-z0-9] and cut to fit: for names that have no host and pid. */
    public static HolderTag named(String name) {
        String kept = sanitized(name);
        return new HolderTag(kept.substring(0, Math.min(MAX_LENGTH, kept.length())));
    }

    /** The holder a nonce names; empty for an untagged (older) nonce. */
    public static Optional<String> inNonce(String nonce) {
        return nonce.length() > RANDOM_LENGTH ? Optional.of(nonce.substring(0, nonce.length() - RANDOM_LENGTH))
                : Optional.empty();
    }

    private static String sanitized(String name) {
        StringBuilder out = new StringBuilder();
        for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) {
            if (fits(c)) {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean fits(int c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }
}
