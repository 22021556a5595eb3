package io.leasehold.api;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.spool.ItemState;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;

/** The 100,000-item bulk figures on the spool directory. */
@QuarkusTest
@TestProfile(BulkScaleProfile.class)
@Tag("benchmark")
class DirectoryBulkScaleBenchmark extends BulkScaleContract {

    @Inject
    SpoolLayout layout;

    /** A settled file dated when it settled, and its reservation naming its inode, as a settlement leaves them. */
    @Override
    void seed(ItemState state, List<String> ids, Instant at) throws Exception {
        SpoolFolder folder = SpoolFolder.valueOf(state.name());
        byte[] payload = "seeded".getBytes(StandardCharsets.UTF_8);
        for (String id : ids) {
            Path file = Files.write(layout.file(folder, id), payload);
            Files.setLastModifiedTime(file, FileTime.from(at));
            Files.writeString(layout.file(SpoolFolder.IDS, id), Files.getAttribute(file, "unix:ino") + "\n");
        }
    }

    @Override
    long count(ItemState state) throws Exception {
        try (Stream<Path> entries = Files.list(layout.folder(SpoolFolder.valueOf(state.name())))) {
            return entries.count();
        }
    }

    @Override
    String backend() {
        return "directory";
    }

    @AfterEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }
}
