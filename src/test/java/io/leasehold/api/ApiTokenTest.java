package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.directory.SpoolFolder;
import io.leasehold.directory.SpoolLayout;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** With leasehold.api.token set every call needs it as a Bearer token, reads too; health, metrics and the page do not. */
@QuarkusTest
@TestProfile(ApiTokenProfile.class)
class ApiTokenTest {

    private static final String RIGHT = "Bearer " + ApiTokenProfile.TOKEN;
    /**
     * Missing, wrong, a prefix of the right one, the right one with a suffix, the wrong scheme, no scheme, the
     * scheme run into the token, and a scheme that only begins like it.
     */
    private static final List<String> REFUSED = List.of("", "Bearer wrong", "Bearer s3cret",
            RIGHT + "x", "Basic " + ApiTokenProfile.TOKEN, ApiTokenProfile.TOKEN, "Bearer" + ApiTokenProfile.TOKEN,
            "Bearerx " + ApiTokenProfile.TOKEN, "Bearer ");
    /** The scheme's name in any case and more than one space after it are the same header (RFC 9110, 11.4). */
    private static final List<String> ACCEPTED = List.of(RIGHT, "bearer " + ApiTokenProfile.TOKEN,
            "BEARER " + ApiTokenProfile.TOKEN, "Bearer   " + ApiTokenProfile.TOKEN);

    @Inject
    SpoolLayout layout;

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    private static RequestSpecification as(String authorization) {
        RequestSpecification request = given();
        return authorization.isEmpty() ? request : request.header("Authorization", authorization);
    }

    private void refusedEveryWay(Function<RequestSpecification, io.restassured.response.Response> call) {
        for (String authorization : REFUSED) {
            SpoolFixture.assertError(call.apply(as(authorization)).then().header("WWW-Authenticate", "Bearer"),
                    401, "Authorization: Bearer");
        }
    }

    @Test
    void enqueueNeedsTheTokenAndWritesNothingWithoutIt() throws IOException {
        String id = SpoolFixture.uniqueId("guarded");
        refusedEveryWay(r -> r.queryParam("id", id).body("payload").post("/items"));
        SpoolFixture.assertEmpty(layout, SpoolFolder.PENDING, SpoolFolder.TMP);

        as(RIGHT).queryParam("id", id).body("payload").when().post("/items").then().statusCode(201);
        assertEquals("payload", Files.readString(layout.file(SpoolFolder.PENDING, id)));
    }

    @Test
    void cancelRetryAndDrainNeedTheToken() {
        String id = SpoolFixture.uniqueId("guarded");
        as(RIGHT).queryParam("id", id).body("p").when().post("/items").then().statusCode(201);

        refusedEveryWay(r -> r.delete("/items/{id}", id));
        as(RIGHT).when().get("/items/{id}", id).then().statusCode(200).body("state", equalTo("pending"));
        as(RIGHT).when().delete("/items/{id}", id).then().statusCode(200).body("state", equalTo("failed"));

        refusedEveryWay(r -> r.post("/items/{id}/retry", id));
        as(RIGHT).when().get("/items/{id}", id).then().body("state", equalTo("failed"));
        as(RIGHT).when().post("/items/{id}/retry", id).then().statusCode(200).body("state", equalTo("pending"));

        refusedEveryWay(r -> r.queryParam("budget", "2s").post("/drain"));
        as(RIGHT).when().get("/items/{id}", id).then().body("state", equalTo("pending"));
        as(RIGHT).queryParam("budget", "2s").when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        as(RIGHT).when().get("/items/{id}", id).then().body("state", equalTo("done"));
    }

    @Test
    void pauseAndResumeNeedTheToken() {
        refusedEveryWay(r -> r.post("/drain/pause"));
        as(RIGHT).when().get("/drain").then().statusCode(200).body("paused", equalTo(false));
        as(RIGHT).when().post("/drain/pause").then().statusCode(200).body("paused", equalTo(true));
        refusedEveryWay(r -> r.post("/drain/resume"));
        as(RIGHT).when().get("/drain").then().statusCode(200).body("paused", equalTo(true));
        as(RIGHT).when().post("/drain/resume").then().statusCode(200).body("paused", equalTo(false));
    }

    @Test
    void bulkRetryAndPurgeNeedTheToken() {
        String id = SpoolFixture.uniqueId("guarded-bulk");
        as(RIGHT).queryParam("id", id).body("p").when().post("/items").then().statusCode(201);
        as(RIGHT).when().delete("/items/{id}", id).then().statusCode(200).body("state", equalTo("failed"));

        refusedEveryWay(r -> r.queryParam("state", "failed").post("/items/retry"));
        refusedEveryWay(r -> r.queryParam("state", "failed").delete("/items"));
        as(RIGHT).when().get("/items/{id}", id).then().body("state", equalTo("failed"));
        as(RIGHT).queryParam("state", "failed").when().delete("/items").then().statusCode(200)
                .body("purged", greaterThanOrEqualTo(1)); // the spool folder may hold other classes' items
        as(RIGHT).when().get("/items/{id}", id).then().statusCode(404);
    }

    @Test
    void theSchemesNameIsMatchedInAnyCaseAndWithMoreThanOneSpace() throws IOException {
        for (String authorization : ACCEPTED) {
            String id = SpoolFixture.uniqueId("any-case");
            as(authorization).queryParam("id", id).body("payload").when().post("/items").then().statusCode(201);
            assertEquals("payload", Files.readString(layout.file(SpoolFolder.PENDING, id)), authorization);
        }
    }

    /** A missing token and a wrong one are told apart: the fix differs (send one, or send the right one). */
    @Test
    void aWrongTokenIsToldApartFromAMissingOne() {
        SpoolFixture.assertError(as("").body("p").post("/items").then(), 401, "this call needs Authorization: Bearer");
        SpoolFixture.assertError(as("Bearer wrong").body("p").post("/items").then(), 401,
                "the token of Authorization: Bearer is not leasehold.api.token's");
        SpoolFixture.assertError(as("Basic " + ApiTokenProfile.TOKEN).body("p").post("/items").then(), 401,
                "this call needs Authorization: Bearer");
    }

    @Test
    void readsNeedTheTokenTooButHealthMetricsTheDescriptionAndThePageDoNot() {
        String id = SpoolFixture.uniqueId("readable");
        as(RIGHT).queryParam("id", id).body("p").when().post("/items").then().statusCode(201);

        for (String read : List.of("/items/" + id, "/items", "/spool", "/lease", "/drain", "/stats", "/schedules")) {
            refusedEveryWay(r -> r.get(read));
        }
        as(RIGHT).when().get("/items/{id}", id).then().statusCode(200).body("id", equalTo(id));
        as(RIGHT).when().get("/items").then().statusCode(200).body("id", equalTo(List.of(id)));
        as(RIGHT).when().get("/spool").then().statusCode(200).body("pending", equalTo(1));
        as(RIGHT).when().get("/lease").then().statusCode(200).body("mode", equalTo("no-bus"));
        for (String open : List.of("/q/health/ready", "/q/health/live", "/q/metrics", "/q/openapi", "/", "/status-page.js")) {
            given().when().get(open).then().statusCode(200);
            as("Bearer wrong").when().get(open).then().statusCode(200); // a bad token where none is needed is no error
        }
    }
}
