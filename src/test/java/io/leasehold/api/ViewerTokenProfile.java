package io.leasehold.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** Both tokens set: the operator's (leasehold.api.token) and the viewer's (leasehold.api.viewer-token). */
public class ViewerTokenProfile implements QuarkusTestProfile {

    static final String OPERATOR = "operator-s3cret";
    static final String VIEWER = "viewer-s3cret";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("leasehold.api.token", OPERATOR, "leasehold.api.viewer-token", VIEWER);
    }
}
