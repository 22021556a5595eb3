package io.leasehold.api;

import java.util.HashMap;
import java.util.Map;

/** The JetStream spool with {@link HoldingHandler}, for the 100,000-item bulk figures. */
public class JetStreamBulkScaleProfile extends JetStreamSpoolProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("leasehold.handler", "test-holding");
        overrides.put("leasehold.spool.jetstream.bucket", "scale-items");
        return overrides;
    }
}
