package io.leasehold.it;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The {@link FencingRig}s a test started ({@code @RegisterExtension final FencingRigs rigs = new FencingRigs();}):
 * each is closed after the test, whatever happened, so no service, command or CMD outlives it.
 */
final class FencingRigs implements AfterEachCallback {

    private final List<FencingRig> started = new ArrayList<>();

    /** A new rig, closed after the test. */
    FencingRig start(String name, FencingRig.Timing timing) {
        return start(name, timing, FencingRig.UNTIL_STOPPED);
    }

    /** As {@link #start(String, FencingRig.Timing)}, each attempt acting as {@code work} says ({@link FencingRig#acting}). */
    FencingRig start(String name, FencingRig.Timing timing, FencingRig.Work work) {
        FencingRig rig = new FencingRig(name, timing, work);
        started.add(rig);
        return rig;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(FencingRig::close);
        started.clear();
    }
}
