/**
 * Micrometer meters of the drain, the bulk calls and the spool's folders. The gauges read the in-memory
 * census, so a scrape costs no file call. Not guaranteed: exact counts at every moment; other instances'
 * moves show only after the next recount, and counters start again at zero with each process.
 */
package io.leasehold.metrics;
