package io.leasehold.spool;

import java.time.Instant;

/**
 * A pause or resume by hand, kept in the spool for the whole fleet: of one schedule ({@link ScheduleBook}) or
 * of the drain's claiming ({@link DrainSwitch}).
 *
 * @param since when it was asked for, on the asking instance's clock
 * @param by who asked: {@code api on <instance>}, or {@code command line on <host>}
 */
public record Pause(boolean paused, Instant since, String by) {
}
