/**
 * The NATS adapters of the controller lease: connecting (TLS, credentials, failures explained in one
 * line) and the {@link io.leasehold.lease.LeaseStore} on a KV key, each call bounded and its failure
 * classified. Guarantees: only a refused revision or a refused user is taken as certain; every other
 * failure is indeterminate, never success. Does not guarantee durability: an acknowledged write survives
 * a power loss only as far as the server's sync settings and replicas make it (docs/nats.md).
 */
package io.leasehold.nats;
