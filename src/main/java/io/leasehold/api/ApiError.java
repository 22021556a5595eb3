package io.leasehold.api;

/** The body of every error answer. */
public record ApiError(int status, String error) {
}
