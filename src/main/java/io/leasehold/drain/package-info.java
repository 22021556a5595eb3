/**
 * One instance's drain: claims pending items and expired claims, runs the handler, renews what it
 * holds and settles each item done, failed or parked for a retry. Guarantees: an item is settled once,
 * by the holder of its current generation, and a holder that finds its claim taken over cancels its
 * work and settles nothing. Does not guarantee exactly-once work: delivery is at-least-once, and a
 * handler may run twice for one item after a takeover (a holder frozen past its lease, a crash), so
 * handlers must be idempotent or their receivers must refuse stale epochs.
 */
package io.leasehold.drain;
