package io.leasehold.app;

import io.leasehold.config.LeaseholdConfig;
import io.leasehold.config.OpenFilesLimit;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.OptionalLong;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * Says at start what open-files limit the service runs with and the caps it works under, derived from
 * that limit or set: when descriptors do run out, the operator sees at once which knob to turn.
 */
@Singleton
class OpenFilesAtStart {

    private static final Logger LOG = Logger.getLogger(OpenFilesAtStart.class);

    void onStart(@Observes StartupEvent event, LeaseholdConfig config, Config all) {
        OptionalLong limit = OpenFilesLimit.current();
        if (limit.isEmpty()) {
            LOG.infof("open files: limit unknown (neither /proc/self/limits nor the JVM tells it), so no cap is"
                    + " derived from it; %d uploads at once (leasehold.item.max-uploads)", config.item().maxUploads());
            return;
        }
        LOG.infof("open files: limit %s; at most %s connections (quarkus.http.limits.max-connections), %d uploads at"
                + " once (leasehold.item.max-uploads), accept backlog %s (quarkus.http.accept-backlog); each derived"
                + " from the limit unless set", limit.getAsLong(),
                all.getOptionalValue("quarkus.http.limits.max-connections", String.class).orElse("no cap"),
                config.item().maxUploads(), all.getOptionalValue("quarkus.http.accept-backlog", String.class)
                        .orElse("the default"));
    }
}
