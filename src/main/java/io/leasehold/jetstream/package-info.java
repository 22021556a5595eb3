/**
 * The spool on NATS JetStream (docs/jetstream-spool.md): one KV entry per item, each move one
 * compare-and-set at the revision it read, payloads inline or in an object store, and the ledger kept in
 * memory by one watch. Guarantees the directory's rules: one winner per move, an answer lost in flight
 * decided by reading the entry again, never taken as success. Does not guarantee durability beyond the
 * server's: with one replica and the default sync a power loss may forget the last moves (an item runs
 * again, or an enqueue answered 201 vanishes); listings may lag other instances' moves by the watch's lag.
 */
package io.leasehold.jetstream;
