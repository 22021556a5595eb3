/**
 * The spool on a shared directory: every change of state is one rename or one link that never replaces a
 * file, with reservations, attempt records, batches and upkeep beside it (docs/protocol.md).
 * Guarantees, among instances keeping the protocol: one winner per move, no item lost to a half-done move,
 * an enqueue durable once answered 201. Does not guarantee: durability of claims, renewals and
 * settlements after a power loss (not fsynced: an item may run again), correctness on a filesystem whose
 * renames or links are not atomic, or any protection against other programs that break the protocol's
 * rules (a {@code mv} onto {@code pending/<id>} replaces it before leasehold sees anything).
 */
package io.leasehold.directory;
