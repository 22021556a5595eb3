package io.leasehold.directory;

import io.leasehold.spool.SpoolUpkeep;
import io.leasehold.spool.Staleness;
import java.io.IOException;
import java.time.Duration;

/** The upkeep of a spool directory: its folders, tmp/'s leftovers, the junk list and the bookkeeping sweep. */
public final class PosixSpoolUpkeep implements SpoolUpkeep {

    private final SpoolLayout layout;
    private final PosixSpool spool;
    private final PosixItemStore store;

    public PosixSpoolUpkeep(SpoolLayout layout, PosixSpool spool, PosixItemStore store) {
        this.layout = layout;
        this.spool = spool;
        this.store = store;
    }

    @Override
    public int open(Staleness staleness, Duration recountEvery) throws IOException {
        layout.createFolders();
        int removed = store.cleanTmp(staleness);
        store.startRecounts(recountEvery); // the folders exist now
        return removed;
    }

    @Override
    public int tidy(Staleness staleness, boolean sweep) throws IOException {
        int removed = store.cleanTmp(staleness);
        spool.forgetFixedJunk();
        return sweep ? removed + store.sweepBookkeeping(staleness.cutoff()) : removed;
    }

    @Override
    public boolean usable() {
        return layout.isUsable();
    }

    @Override
    public String where() {
        return layout.root().toString();
    }
}
