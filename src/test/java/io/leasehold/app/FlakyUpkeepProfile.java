package io.leasehold.app;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Set;

/** The service with {@link FlakyUpkeep} in place of the directory's upkeep. */
public class FlakyUpkeepProfile implements QuarkusTestProfile {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(FlakyUpkeep.class);
    }
}
