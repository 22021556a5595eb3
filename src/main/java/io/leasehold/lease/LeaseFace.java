package io.leasehold.lease;

/**
 * The controller lease as the rest of the service sees it: this instance's standing towards it (what
 * {@code GET /lease}, readiness and the lease gauges show) and the gate every act passes through. The
 * service's lease (app's {@code LeaseService}) is one; the API, health and metrics know only this.
 */
public interface LeaseFace {

    /** This instance's standing now: mode, holder, epoch, and why. */
    Standing standing();

    /** What an act asks before it acts: the epoch to act under, or a refusal. */
    LeaseGate gate();

    /**
     * The gate of the fleet's singleton work (recurring schedules): the epoch of this instance's own lease, or 0
     * when it serves with no bus or unleased; refused to every other instance, even one acting beside the holder
     * under its epoch in claims mode.
     */
    LeaseGate holderGate();
}
