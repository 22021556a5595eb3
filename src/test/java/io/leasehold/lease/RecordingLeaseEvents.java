package io.leasehold.lease;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The lease's events as lines, in order, for assertions; losses kept whole. */
public final class RecordingLeaseEvents implements LeaseEvents {

    public final List<String> said = new CopyOnWriteArrayList<>();
    public final List<Loss> losses = new CopyOnWriteArrayList<>();

    @Override
    public void took(long epoch, LeaseStore.Versioned from) {
        said.add("took " + epoch + (from == null ? "" : " from " + from.record().holder().instance()));
    }

    @Override
    public void adopted(long epoch) {
        said.add("adopted " + epoch);
    }

    @Override
    public void storeReset(Standing.Reset reset) {
        said.add("reset " + reset.storeWasAt() + " < " + reset.floor());
    }

    @Override
    public void unleased(String why) {
        said.add("unleased");
    }

    @Override
    public void renewalUnanswered(long epoch, String why) {
        said.add("unanswered " + epoch);
    }

    @Override
    public void floorUnusable(String why) {
        said.add("floor unusable");
    }

    @Override
    public void lost(Loss loss) {
        losses.add(loss);
        said.add("lost " + loss.standing().epoch());
    }

    @Override
    public void released(long epoch) {
        said.add("released " + epoch);
    }

    @Override
    public void releaseFailed(long epoch, String why) {
        said.add("release failed " + epoch);
    }

    /** How many times the lease said it was lost. */
    public int lostCount() {
        return losses.size();
    }
}
