package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DELETE /items/{id} of a claim planted in claimed/, as another instance holds one: directory-only, since
 * HTTP alone cannot keep an item claimed (the rest of cancel and retry is {@link CancelRetryContract}).
 */
@QuarkusTest
class CancelRetryTest {

    @Inject
    SpoolLayout layout;

    @Inject
    DrivenClock clock;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    @Test
    void cancelOfAClaimedItemIs409AndChangesNothing() throws IOException {
        String held = SpoolFixture.uniqueId("cancel-claimed");
        ClaimName claim = new ClaimName(held, Generation.parse("1-zz9").orElseThrow(), clock.now());
        Files.writeString(layout.claimFile(claim), "c");
        SpoolFixture.assertError(given().when().delete("/items/{id}", held).then(), 409, "is claimed, not pending");
        assertEquals(List.of(claim.fileName()), SpoolFixture.names(layout, SpoolFolder.CLAIMED));
    }
}
