package io.leasehold.lease;

/** Every act passes here: it answers the epoch the act carries (0 for none) or why it may not happen. */
@FunctionalInterface
public interface LeaseGate {

    long epochForAct() throws ActRefused;

    /** Whether this instance should claim work now at all (a leader-mode drain asks the holder only). */
    default boolean mayClaim() {
        return true;
    }

    /** Whether settlements pass the gate too (leader mode: only the holder may move finished items). */
    default boolean gatesSettlements() {
        return false;
    }

    /** Without a bus there is nothing to order against: every act carries epoch 0. */
    LeaseGate NO_BUS = () -> 0L;
}
