package io.leasehold.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * JSON as the service's REST layer writes it (Quarkus' mapper: ISO-8601 instants, not numbers), so that
 * a script reads the same shapes from a command as from the HTTP API.
 */
public final class CommandJson {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private CommandJson() {
    }

    /** One line of JSON. */
    public static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value, e);
        }
    }
}
