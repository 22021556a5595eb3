/**
 * The lease's events as log lines, shared by the service and the command line's {@code lease exec}: what an
 * operator reads in either process's log is written in one place.
 */
package io.leasehold.logs;
