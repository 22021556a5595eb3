/**
 * The spool's ports, which both backends implement and nothing else here knows the backends by:
 * {@link io.leasehold.spool.Spool} for the drain, {@link io.leasehold.spool.ItemStore} for the API and the
 * command line, {@link io.leasehold.spool.SpoolUpkeep} for housekeeping, and
 * {@link io.leasehold.spool.SpoolBackend}, one backend's adapters opened together; with the values and rules
 * both share. Guarantees, on either backend: one winner per move (claim, takeover, settlement), an item
 * settled at most once, an enqueue durable once answered. The adapters are {@code io.leasehold.directory}
 * and {@code io.leasehold.jetstream}, built by {@code io.leasehold.backend.SpoolBackends}.
 */
package io.leasehold.spool;
