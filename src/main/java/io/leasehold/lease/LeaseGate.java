package io.leasehold.lease;

/** Every act passes here: it answers the epoch the act carries (0 for none) or why it may not happen. */
@FunctionalInterface
public interface LeaseGate {

    long epochForAct() throws ActRefused;

    /** Without a bus there is nothing to order against: every act carries epoch 0. */
    LeaseGate NO_BUS = () -> 0L;
}
