package io.leasehold.lease;

/** Who holds (or wants) the controller lease: this process among all instances. */
public record Holder(String instance, String host, String build) {
}
