package io.leasehold.testing;

/**
 * How many rounds each fault test runs: system property {@code leasehold.fault.rounds}, 1 in the
 * normal suite, more under {@code ./mvnw verify -Pfaults} (pom.xml).
 */
public final class FaultRounds {

    private FaultRounds() {
    }

    public static int count() {
        return read("leasehold.fault.rounds", "1");
    }

    /**
     * Rounds of each fencing scenario of issue 9 (the {@code Lease*FaultIT} that record acts in an
     * {@link ActLog}): system property {@code leasehold.fencing.rounds}, a few in the normal suite and at
     * least 20 under {@code -Pfaults} (pom.xml), as the issue asks.
     */
    public static int fencing() {
        return read("leasehold.fencing.rounds", "2");
    }

    private static int read(String key, String fallback) {
        String value = System.getProperty(key, fallback);
        int rounds;
        try {
            rounds = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            rounds = 0;
        }
        if (rounds < 1) {
            throw new IllegalArgumentException(key + " must be a whole number ≥ 1, got '" + value + "'");
        }
        return rounds;
    }
}
