package io.leasehold.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The body of every error answer. Mappers and filters hand it over inside a plain {@code Response},
 * where Quarkus cannot see its type, so it is registered for a native image here (SerialisedTypesIT).
 */
@RegisterForReflection
public record ApiError(int status, String error) {
}
