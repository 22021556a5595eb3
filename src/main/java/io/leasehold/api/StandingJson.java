package io.leasehold.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.leasehold.lease.Standing;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * {@code GET /lease} leaves out the fields that do not apply to the mode (no holder when nobody holds
 * it, no reset unless one happened): said here, so {@link Standing} stays free of Jackson.
 */
@Singleton
public class StandingJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.configOverride(Standing.class).setInclude(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL,
                JsonInclude.Include.NON_NULL));
    }
}
