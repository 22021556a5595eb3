/**
 * What goes over the wire and is the same for the HTTP API and the command line: the JSON answers both
 * print (an enqueue's, a bulk retry's, a purge's, the spool's counts) and how both read the times a caller
 * gives ({@code delay}, {@code notBefore}, {@code olderThan}). Here so that neither edge imports the other.
 */
package io.leasehold.wire;
