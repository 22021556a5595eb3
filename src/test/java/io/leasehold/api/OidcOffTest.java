package io.leasehold.api;

import static io.restassured.RestAssured.given;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * OIDC is off unless configured (application.properties): an access token signed as an issuer signs them, with the
 * role operator, is just a wrong token, answered as before OIDC was built.
 */
@QuarkusTest
@TestProfile(ViewerTokenProfile.class)
class OidcOffTest {

    @Test
    void withOidcOffAnIssuersTokenIsAWrongToken() {
        String operator = "Bearer " + OidcTokens.of("otto", ApiTokens.OPERATOR);
        SpoolFixture.assertError(given().header("Authorization", operator).get("/items").then()
                .header("WWW-Authenticate", "Bearer"), 401,
                "the token of Authorization: Bearer is not leasehold.api.token's nor leasehold.api.viewer-token's: send"
                        + " the service's own");
        SpoolFixture.assertError(given().header("Authorization", operator).post("/drain/pause").then(), 401,
                "is not leasehold.api.token's nor leasehold.api.viewer-token's: send the service's own");
    }
}
