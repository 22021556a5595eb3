package io.leasehold.drain;

import io.leasehold.core.ClaimName;
import io.leasehold.core.TakeoverRule;
import io.leasehold.directory.PosixItemStore;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.spool.ArrivalWatch;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemView;
import io.leasehold.testing.DrivenClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh spool in a temporary folder and the instances a test starts on it. */
abstract class SpoolTestBase {

    static final Instant T0 = DrivenClock.START;
    static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    SpoolLayout layout;
    final List<Instance> instances = new ArrayList<>();

    @BeforeEach
    void createSpool() throws IOException {
        layout = new SpoolLayout(dir);
        layout.createFolders();
    }

    @AfterEach
    void closeInstances() {
        instances.forEach(Instance::close);
    }

    Instance instance(Instant start, int maxAttempts, boolean auto) {
        Instance instance = new Instance(layout, start, maxAttempts, auto);
        instances.add(instance);
        return instance;
    }

    /** An instance draining through a {@link FaultySpool}, handed to {@code hook} for the test to script. */
    Instance instanceWith(java.util.concurrent.atomic.AtomicReference<FaultySpool> hook) {
        Instance instance = new Instance(layout, T0, 5, true, ArrivalWatch.NONE, real -> {
            FaultySpool faulty = new FaultySpool(real);
            hook.set(faulty);
            return faulty;
        });
        instances.add(instance);
        return instance;
    }

    Instance instance(Instant start, TakeoverRule takeover) {
        Instance instance = new Instance(layout, start, 5, true, ArrivalWatch.NONE, takeover);
        instances.add(instance);
        return instance;
    }

    Instance instance(Instant start) {
        return instance(start, 5, true);
    }

    /** As another program would: write elsewhere on the filesystem, then rename into pending/. */
    void enqueue(String id, String payload) throws IOException {
        Path tmp = layout.file(SpoolFolder.TMP, id + ".writing");
        Files.writeString(tmp, payload);
        Files.move(tmp, layout.file(SpoolFolder.PENDING, id));
    }

    void enqueue(String id) throws IOException {
        enqueue(id, "payload of " + id);
    }

    List<ClaimName> claims() throws IOException {
        try (Stream<Path> files = Files.list(layout.folder(SpoolFolder.CLAIMED))) {
            return files.map(p -> ClaimName.parse(p.getFileName().toString())).flatMap(Optional::stream).toList();
        }
    }

    /** The reason recorded for the item, as the API shows it. */
    /**
     * Why the item's last attempt did not succeed: the record of its claim while it is claimed (parked
     * for a retry, say), else the reason the API shows for it.
     */
    String reason(Instance instance, String id) throws IOException {
        for (ClaimName claim : claims()) {
            if (claim.id().equals(id)) {
                return instance.spool.record(id, claim.generation()).map(AttemptRecord::text).orElse("(none)");
            }
        }
        return new PosixItemStore(layout, instance.spool, Instance.TERMS, instance.clock).lookup(id)
                .map(ItemView::reason).orElse("(none)");
    }

    boolean settledIn(SpoolFolder folder, String id) {
        return Files.exists(layout.file(folder, id));
    }
}
