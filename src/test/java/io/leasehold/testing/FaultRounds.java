package io.leasehold.testing;

/**
 * How many rounds each fault test runs: system property {@code leasehold.fault.rounds}, 1 in the
 * normal suite, more under {@code ./mvnw verify -Pfaults} (pom.xml).
 */
public final class FaultRounds {

    private FaultRounds() {
    }

    public static int count() {
        String value = System.getProperty("leasehold.fault.rounds", "1");
        int rounds;
        try {
            rounds = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            rounds = 0;
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("leasehold.fault.rounds must be a whole number ≥ 1, got '" + value + "'");
        }
        return rounds;
    }
}
