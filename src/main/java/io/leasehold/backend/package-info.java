/** The one factory of a spool backend, from the configuration: for the service's wiring and the command line alike. */
package io.leasehold.backend;
