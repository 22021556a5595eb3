package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;
import java.util.Set;

/** Small limits (1K payloads, batches of 5) and the syncs of pending/ recorded ({@link RecordingDirectorySync}). */
public class BatchLimitsProfile implements QuarkusTestProfile {

    static final int MAX_BATCH = 5;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.item.max-bytes", "1K", "leasehold.item.max-batch", Integer.toString(MAX_BATCH));
    }

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(RecordingDirectorySync.class);
    }
}
