package io.leasehold.api;

import io.leasehold.spool.ItemState;
import java.io.IOException;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * What an API contract needs to see of the backend under the service beyond HTTP, which never shows a
 * payload again or what a refusal left behind: one answer per backend, read where that backend keeps it.
 */
interface SpoolProbe extends AutoCloseable {

    /** The probe of the backend the running service's leasehold.spool.kind chose. */
    static SpoolProbe current() {
        String kind = ConfigProvider.getConfig().getOptionalValue("leasehold.spool.kind", String.class)
                .orElse("directory");
        return kind.equals("jetstream") ? new JetStreamProbe() : new DirectoryProbe();
    }

    /**
     * Before each test: no item is left pending or claimed, so a drain pass's counts are this test's
     * own. The directory is emptied; the JetStream ledger is shared by every class of its profile, so
     * what earlier tests left pending is drained instead, and settled items of theirs stay.
     */
    void startClean();

    /** The payload of the item, which must be in {@code state} and in no other. */
    byte[] payloadIn(ItemState state, String id) throws IOException;

    /** Everything the backend holds, each entry with what would change if it were written: equal means nothing was. */
    List<String> holdings() throws IOException;

    /** Nothing half made is left: no staging, no reservation or payload that is not an item's. */
    void assertNoStaging() throws IOException;

    /** The id is known (its enqueue has begun), whether or not the item is there yet. */
    boolean isReserved(String id) throws IOException;

    /** Lets go of what the probe opened to look. */
    @Override
    default void close() throws InterruptedException {
    }
}
