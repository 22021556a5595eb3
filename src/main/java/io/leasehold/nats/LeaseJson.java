package io.leasehold.nats;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.leasehold.lease.LeaseRecord;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The lease value as people read it with {@code nats kv get}:
 * {@code {"holder":{"instance":..,"host":..,"build":..},"epoch":n,"takenAt":"ISO","renewedAt":"ISO"}},
 * with {@code "vacancy":"RELEASED"|"RESET"} (and no takenAt) when nobody holds it.
 * Fields added by a later build are ignored, so builds can hand the lease to each other.
 */
public final class LeaseJson {

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // A holder's value has no vacancy: leave the field out, as builds before it wrote.
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);

    private LeaseJson() {
    }

    public static byte[] encode(LeaseRecord record) {
        try {
            return JSON.writeValueAsBytes(record);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the lease record " + record, e);
        }
    }

    public static LeaseRecord decode(byte[] json) throws IOException {
        LeaseRecord record = JSON.readValue(json, LeaseRecord.class);
        if (record == null || record.holder() == null) {
            throw new IOException("no holder in the lease value");
        }
        return record;
    }
}
