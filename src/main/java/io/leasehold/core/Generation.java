package io.leasehold.core;

import java.security.SecureRandom;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which claim of an item this is: the attempt number (from 1) and a nonce unique to the claim.
 * A renewal keeps the generation; a takeover makes a new one, so a late holder can never reach
 * a claim that is no longer its own.
 */
public record Generation(int attempt, String nonce) {

    private static final Pattern GRAMMAR = Pattern.compile("([1-9][0-9]{0,8})-([a-z0-9]{1,32})");
    /** Compiled once: String.matches would compile it again for every claim. */
    private static final Pattern NONCE = Pattern.compile("[a-z0-9]{1,32}");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final int NONCE_LENGTH = HolderTag.RANDOM_LENGTH;

    public Generation {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt counts from 1, got " + attempt);
        }
        if (!NONCE.matcher(nonce).matches()) {
            throw new IllegalArgumentException("nonce must match [a-z0-9]+, got " + nonce);
        }
    }

    public static Generation first() {
        return at(1, HolderTag.NONE);
    }

    /** A new claim that goes on at {@code attempt}: an item handed back keeps its count, so max-attempts holds. */
    public static Generation at(int attempt) {
        return at(attempt, HolderTag.NONE);
    }

    /** As {@link #at(int)}, made by the holder {@code by}, which its nonce names. */
    public static Generation at(int attempt, HolderTag by) {
        return new Generation(attempt, by.text() + freshNonce());
    }

    /** The generation of the claim that takes this one over. */
    public Generation next() {
        return next(HolderTag.NONE);
    }

    /** As {@link #next()}, taken by the holder {@code by}. */
    public Generation next(HolderTag by) {
        return at(attempt + 1, by);
    }

    /** The holder whose tag the nonce carries; empty for a nonce of an older build (or a tool's). */
    public Optional<String> holder() {
        return HolderTag.inNonce(nonce);
    }

    public static Optional<Generation> parse(String text) {
        Matcher m = GRAMMAR.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new Generation(Integer.parseInt(m.group(1)), m.group(2)));
    }

    @Override
    public String toString() {
        return attempt + "-" + nonce;
    }

    private static String freshNonce() {
        // One draw from the (locked, syscall-backed) SecureRandom per nonce, not one per character.
        byte[] random = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(random);
        char[] out = new char[NONCE_LENGTH];
        for (int i = 0; i < out.length; i++) {
            out[i] = ALPHABET[(random[i] & 0xff) % ALPHABET.length];
        }
        return new String(out);
    }
}
