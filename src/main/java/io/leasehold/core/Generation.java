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
    private static final int NONCE_LENGTH = 10;

    public Generation {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt counts from 1, got " + attempt);
        }
        if (!NONCE.matcher(nonce).matches()) {
            throw new IllegalArgumentException("nonce must match [a-z0-9]+, got " + nonce);
        }
    }

    public static Generation first() {
        return new Generation(1, freshNonce());
    }

    /** A new claim that goes on at {@code attempt}: an item handed back keeps its count, so max-attempts holds. */
    public static Generation at(int attempt) {
        return new Generation(attempt, freshNonce());
    }

    /** The generation of the claim that takes this one over. */
    public Generation next() {
        return new Generation(attempt + 1, freshNonce());
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
