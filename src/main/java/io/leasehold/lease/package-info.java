/**
 * This process's side of the controller lease: a state machine that takes, renews, loses and gives back
 * one key in a {@link io.leasehold.lease.LeaseStore}, with an epoch that only grows ({@link
 * io.leasehold.lease.EpochFloor} keeps it apart from the store), and the {@link
 * io.leasehold.lease.LeaseGate} every act passes. Guarantees: the gate closes at the holder's renew
 * deadline, on its own monotonic clock, before a candidate can have seen the lease unrenewed for a full
 * duration; epochs never go backwards while the epoch floor survives. Does not guarantee that a stale
 * holder's act has no effect (acts under way are not recalled): an epoch fences only receivers that
 * compare it and refuse an older one. Imports no framework,
 * only {@code java.*} and the core ({@code CorePurityTest} checks).
 */
package io.leasehold.lease;
