/**
 * Micrometer meters of the drain, the bulk calls, the spool's folders and its running claims' ages. The
 * gauges read the in-memory census and running claims, so a scrape costs no file or network call. Not
 * guaranteed: exact counts at every moment; other instances' moves show only after the next recount (or
 * the watch's lag), a claim taken before this instance first saw it counts from that first sighting, and
 * counters start again at zero with each process. The stuck-claim gauges leave out what a claim's record
 * says is parked: a claim whose park wrote its retry record but could not be renamed, held and renewed
 * while its settlement is tried again, is not counted (its handler is done; {@code
 * leasehold_settlements_waiting} and the settlements-failing alert show it).
 */
package io.leasehold.metrics;
