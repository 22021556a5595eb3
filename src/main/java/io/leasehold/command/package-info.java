/**
 * Command mode, in plain Java without booting Quarkus, with the service's own configuration mapping
 * ({@link io.leasehold.command.CommandConfig}): {@code lease status} and {@code lease exec} here, {@code
 * items ...} and {@code spool ...} in {@link io.leasehold.command.items}, under the root command of
 * {@link io.leasehold.cli}. {@code exec} runs CMD under an epoch it may act under (its own lease, or a
 * live holder's it watches) and stops CMD's whole process group when that epoch goes stale.
 * Does not guarantee that CMD did nothing after its epoch went stale: it gets TERM at once and KILL by a
 * deadline, and what it did meanwhile is fenced only by receivers that compare {@code LEASEHOLD_EPOCH}.
 */
package io.leasehold.command;
