package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** The API suite on the JetStream spool, and what that spool cannot do yet. */
@QuarkusTest
@TestProfile(JetStreamSpoolProfile.class)
class JetStreamItemsApiTest extends ItemsApiContract {

    @Test
    void aBatchIsRefusedPlainlyUntilItIsBuiltAndNothingIsWritten() {
        String id = SpoolFixture.uniqueId("js-batch");
        given().contentType("application/x-ndjson").body(("{\"id\":\"" + id + "\",\"payload\":\"x\"}\n").getBytes())
                .when().post("/items/batch").then().statusCode(501).body(containsString("not built"));
        given().when().get("/items/{id}", id).then().statusCode(404);
    }
}
