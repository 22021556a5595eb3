/**
 * The operator's commands on the spool ({@code items list|show|retry|cancel|purge|enqueue}, {@code spool
 * status}), parsed by picocli and run on the spool (the directory, or JetStream) through the service's own
 * {@link io.leasehold.spool.ItemStore} and {@link io.leasehold.spool.BulkActions}: the same protocol as the
 * API, so a command and running instances may share one spool. Output is a table for people or, with {@code
 * --json}, the API's own shapes. Takes no lease: nothing here is fenced by an epoch.
 */
package io.leasehold.command.items;
