/**
 * Every {@code leasehold.*} setting as one mapping, its defaults (some derived from the open-files limit)
 * and the one check at start that names the key of each problem and stops the start with one line, in
 * production before Quarkus boots ({@link io.leasehold.config.ConfigPreflight}). Each value's own rule
 * lives in the settings record it becomes ({@link io.leasehold.config.ConfigRecords}). Guarantees that a
 * running service has consistent settings. Does not guarantee that instances sharing a spool have the
 * same settings: a different {@code claim.lease} or {@code max-skew} on another instance is not detected.
 */
package io.leasehold.config;
