/**
 * leasehold: instances that share one spool (a directory, or a JetStream ledger) drain it without a
 * coordinator, one claim per item, fenced by an optional controller lease on NATS. The protocol is in
 * docs/protocol.md, the lease in docs/lease.md. Guaranteed: every item settles once, in one place.
 * Not guaranteed: that a handler's side effects happen once (at-least-once), or anything a program
 * that writes into the spool without keeping its rules breaks.
 */
package io.leasehold;
