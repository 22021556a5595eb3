/**
 * Runs one blocking file or process call on a worker pool as a Mutiny {@code Uni}, never on the event
 * loop that subscribes. Kept apart from the core so the core stays framework-free. Guarantees where the
 * call runs and that an {@link java.io.IOException} arrives as the Uni's failure; does not bound how
 * long the call takes, nor cancel it once started.
 */
package io.leasehold.workers;
