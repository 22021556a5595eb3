/**
 * The protocol's vocabulary and arithmetic: item ids, claim names (id, generation, reading), lease
 * terms, takeover rules, backoff, schedules, the state of a held claim, and the {@link
 * io.leasehold.core.Clock} port. Pure Java on purpose: it imports only {@code java.*} and itself
 * (CorePurityTest fails otherwise), so the rules can be read and tested without any framework.
 * Guarantees only what its values check when made (grammar, durations, counts); it performs no I/O and
 * decides nothing about other machines: whether a takeover is safe depends on clocks agreeing within
 * {@code max-skew}, or, under the observed rule, on the taker's own sightings being current.
 */
package io.leasehold.core;
