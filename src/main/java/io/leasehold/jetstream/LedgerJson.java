package io.leasehold.jetstream;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The ledger entry as people read it with {@code nats kv get}. Fields added by a later build are ignored,
 * so builds can share a ledger; absent ones are left out.
 */
final class LedgerJson {

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private LedgerJson() {
    }

    static byte[] encode(LedgerEntry entry) {
        try {
            return JSON.writeValueAsBytes(entry);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the ledger entry " + entry, e);
        }
    }

    static LedgerEntry decode(byte[] json) throws IOException {
        return JSON.readValue(json, LedgerEntry.class);
    }
}
