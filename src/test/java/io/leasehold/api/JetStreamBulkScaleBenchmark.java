package io.leasehold.api;

import static io.restassured.RestAssured.given;

import io.leasehold.jetstream.LedgerSeeds;
import io.leasehold.spool.ItemState;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Tag;

/** The 100,000-item bulk figures on the JetStream spool. */
@QuarkusTest
@TestProfile(JetStreamBulkScaleProfile.class)
@Tag("benchmark")
class JetStreamBulkScaleBenchmark extends BulkScaleContract {

    @Override
    void seed(ItemState state, List<String> ids, Instant at) throws Exception {
        var config = ConfigProvider.getConfig();
        LedgerSeeds.settled(config.getValue("leasehold.nats.url", String.class),
                config.getValue("leasehold.spool.jetstream.bucket", String.class), state, ids, at, "seeded to fail");
    }

    /** From the service's picture of the ledger, which its watch keeps. */
    @Override
    long count(ItemState state) {
        return given().when().get("/spool").then().statusCode(200).extract().jsonPath().getLong(state.label());
    }

    @Override
    String backend() {
        return "JetStream";
    }
}
