/**
 * The Quarkus wiring: builds the spool, the drain, the handler and the controller lease from the
 * configuration, owns the threads that must never wait behind the worker pool (renewals, the lease),
 * retention, clean stops and the jar's entry point. Guarantees the start and stop order (the drain stops
 * and hands its claims back before the service exits). Does not guarantee a hand-back after SIGKILL or a
 * crash: those claims run again only after their lease, by takeover.
 */
package io.leasehold.app;
