/**
 * The system's clocks: {@link io.leasehold.clock.TickingClock} adds periodic ticks (which return a
 * Mutiny {@code Uni}) to the core's pure {@link io.leasehold.core.Clock}, kept here so the core stays
 * framework-free. The system clock ticks on a scheduled executor ({@code ExecutorTicks}), timed by the
 * monotonic clock, so a stepped wall clock never stops or drops a tick; a tick never runs twice at once,
 * and one that falls due while the previous one runs is run when that one ends. Its timers run on a
 * thread apart from its ticks. Not guaranteed: that
 * wall-clock readings agree with other machines' (only {@code max-skew} is allowed for), or that ticks
 * fall exactly on time under load; deadlines therefore use the monotonic clock.
 */
package io.leasehold.clock;
