/**
 * The HTTP API: enqueue (single, NDJSON batch), look up, list, cancel, retry, purge, drain passes, the
 * spool's counts and the lease. Every blocking spool call runs on the worker pool, uploads are bounded
 * in size, time and number, and every error answer has a JSON body naming what went wrong. Guarantees
 * that a 201 means the spool's own durability promise was kept. Does not guarantee authentication
 * beyond one shared bearer token for mutating calls, nor ordering between concurrent clients.
 */
package io.leasehold.api;
