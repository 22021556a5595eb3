/**
 * The system's clocks: {@link io.leasehold.clock.TickingClock} adds periodic ticks (which return a
 * Mutiny {@code Uni}) to the core's pure {@link io.leasehold.core.Clock}, kept here so the core stays
 * framework-free. {@code SystemClock} ticks on the Quarkus scheduler, {@code ScheduledSystemClock} on a
 * thread of its own for command mode; both skip a tick still running. Not guaranteed: that wall-clock
 * readings agree with other machines' (only {@code max-skew} is allowed for), or that ticks fall exactly
 * on time under load; deadlines therefore use the monotonic clock and timers on a thread of their own.
 */
package io.leasehold.clock;
