package io.leasehold.it;

import java.util.Map;
import java.util.Set;

/** The poison suite on a spool directory: items dropped in as files, states read from the folders. */
class DirectoryPoisonItemIT extends PoisonItemContract {

    @Override
    protected Map<String, String> backend() {
        return Map.of();
    }

    @Override
    protected void enqueue(String id, String payload) {
        spool.enqueue(id, payload);
    }

    @Override
    protected Set<String> ids(String state) {
        return spool.names(state);
    }
}
