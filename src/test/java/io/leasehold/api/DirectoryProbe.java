package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.leasehold.core.ClaimName;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.spool.ItemState;
import io.leasehold.testing.Reservation;
import io.quarkus.arc.Arc;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link SpoolProbe} of the spool directory: its folders, read as files. */
final class DirectoryProbe implements SpoolProbe {

    private static final List<SpoolFolder> ITEM_FOLDERS =
            List.of(SpoolFolder.PENDING, SpoolFolder.DONE, SpoolFolder.FAILED);

    private final SpoolLayout layout = Arc.container().instance(SpoolLayout.class).get();

    @Override
    public void startClean() {
        SpoolFixture.empty(layout);
    }

    @Override
    public byte[] payloadIn(ItemState state, String id) throws IOException {
        SpoolFolder folder = SpoolFolder.valueOf(state.name());
        for (SpoolFolder other : ITEM_FOLDERS) {
            if (other != folder) {
                assertFalse(Files.exists(layout.file(other, id)), id + " is in " + other.dirName() + "/ too");
            }
        }
        assertFalse(claimedIds().contains(id), id + " is claimed too");
        return Files.readAllBytes(layout.file(folder, id));
    }

    private List<String> claimedIds() {
        return SpoolFixture.names(layout, SpoolFolder.CLAIMED).stream().map(ClaimName::parse)
                .flatMap(Optional::stream).map(ClaimName::id).toList();
    }

    @Override
    public List<String> holdings() {
        return SpoolFixture.census(layout);
    }

    @Override
    public void assertNoStaging() {
        SpoolFixture.assertEmpty(layout, SpoolFolder.TMP);
        List<String> items = new ArrayList<>(claimedIds());
        for (SpoolFolder folder : ITEM_FOLDERS) {
            items.addAll(SpoolFixture.names(layout, folder));
        }
        assertEquals(items.stream().sorted().toList(), SpoolFixture.names(layout, SpoolFolder.IDS),
                "ids/ reserves exactly the ids of the items there are");
    }

    @Override
    public boolean isReserved(String id) {
        return Reservation.present(layout.file(SpoolFolder.IDS, id));
    }
}
