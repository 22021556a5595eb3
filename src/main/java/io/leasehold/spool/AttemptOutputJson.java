package io.leasehold.spool;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;

/**
 * An attempt's output as both backends store it: the JSON the API answers, so {@code nats kv get} and
 * {@code cat} show what the page shows. Fields a later build adds are ignored.
 */
public final class AttemptOutputJson {

    /** A kept output is a few KiB; escaping can grow it, but a file or value past this is not one of ours. */
    public static final int MAX_BYTES = 128 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private AttemptOutputJson() {
    }

    public static byte[] encode(AttemptOutput output) {
        try {
            return JSON.writeValueAsBytes(output);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the output of attempt " + output.attempt(), e);
        }
    }

    /** The output in {@code json}; an IOException names what is wrong with it. */
    public static AttemptOutput decode(byte[] json) throws IOException {
        if (json.length > MAX_BYTES) {
            throw new IOException("an attempt's output of " + json.length + " bytes is not one leasehold wrote (at most "
                    + MAX_BYTES + ")");
        }
        try {
            return JSON.readValue(json, AttemptOutput.class);
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException("not an attempt's output", e); // the parser's words are for the log, not the answer
        }
    }
}
