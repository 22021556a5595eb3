package io.leasehold.config;

import io.smallrye.config.ConfigMappings.ConfigClass;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The valid {@code leasehold.*} key a misspelt one was most likely meant to be: one or two letters off
 * ({@code concurency}), or the right last word under the wrong group ({@code leasehold.spool.concurrency}).
 * The keys come from the mapping itself, so the list cannot drift from what the service reads.
 */
final class KeySuggestion {

    private KeySuggestion() {
    }

    /** Every key of the mapping; empty if the mapping cannot be read (then no suggestion, never a failure). */
    static Set<String> keys() {
        try {
            return new TreeSet<>(new ConfigClass(LeaseholdConfig.class, "leasehold").getProperties().keySet());
        } catch (RuntimeException | LinkageError e) {
            return Set.of();
        }
    }

    static Optional<String> closest(String unknown) {
        return closest(unknown, keys());
    }

    static Optional<String> closest(String unknown, Set<String> keys) {
        keys = named(unknown, keys);
        String wanted = unknown.toLowerCase(java.util.Locale.ROOT);
        // Off by little: at most a third of the key's last word, and never more than three edits.
        int allowed = Math.min(3, Math.max(1, lastWord(wanted).length() / 3));
        Optional<String> near = keys.stream()
                .filter(k -> distance(wanted, k) <= allowed)
                .min(Comparator.comparingInt((String k) -> distance(wanted, k)).thenComparing(k -> k));
        if (near.isPresent()) {
            return near;
        }
        List<String> sameWord = keys.stream().filter(k -> lastWord(k).equals(lastWord(wanted))).toList();
        return sameWord.size() == 1 ? Optional.of(sameWord.get(0)) : Optional.empty();
    }

    /**
     * The keys with a name of the user's ({@code leasehold.schedules.*.cron}) as the unknown key names it
     * ({@code leasehold.schedules.nightly.cron} for {@code leasehold.schedules.nightly.corn}), so the suggestion is
     * the key to write; a name quoted with dots in it stays one name.
     */
    private static Set<String> named(String unknown, Set<String> keys) {
        Set<String> out = new TreeSet<>();
        for (String k : keys) {
            int star = k.indexOf(".*.");
            String prefix = star < 0 ? null : k.substring(0, star + 1);
            if (prefix == null || !unknown.startsWith(prefix)) {
                out.add(k);
                continue;
            }
            String rest = unknown.substring(prefix.length());
            int end = rest.startsWith("\"") ? rest.indexOf('"', 1) + 1 : rest.indexOf('.');
            out.add(end <= 0 ? k : prefix + rest.substring(0, end) + k.substring(star + 2));
        }
        return out;
    }

    private static String lastWord(String key) {
        return key.substring(key.lastIndexOf('.') + 1);
    }

    /** Levenshtein distance, a swap of two neighbours counting as one edit (the commonest slip of a typist). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
