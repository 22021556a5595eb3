package io.leasehold.app;

import io.leasehold.spool.SpoolBackend;
import io.leasehold.spool.SpoolUpkeep;
import io.leasehold.spool.Staleness;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The directory's upkeep, recording what each housekeeping tick asked of it and failing the next few
 * tidies on demand, as a full disk or an unreadable folder would. Enabled by {@link FlakyUpkeepProfile}.
 */
@Alternative
@Singleton
public class FlakyUpkeep implements SpoolUpkeep {

    final List<Boolean> sweepsAsked = new CopyOnWriteArrayList<>();
    final AtomicInteger failNext = new AtomicInteger();
    private final SpoolUpkeep real;

    FlakyUpkeep(SpoolBackend backend) {
        this.real = backend.upkeep();
    }

    @Override
    public int open(Staleness staleness, Duration recountEvery) throws IOException {
        return real.open(staleness, recountEvery);
    }

    @Override
    public int tidy(Staleness staleness, boolean sweep) throws IOException {
        sweepsAsked.add(sweep);
        if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IOException("No space left on device (staged by the test)");
        }
        return real.tidy(staleness, sweep);
    }

    @Override
    public boolean usable() {
        return real.usable();
    }

    @Override
    public String where() {
        return real.where();
    }
}
