package io.leasehold.api;

import static io.restassured.RestAssured.given;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * With OIDC on and no static token the API is not open (as it is with neither): every call needs an issuer's token,
 * and the answers name the issuer alone.
 */
@QuarkusTest
@TestProfile(OidcOnlyProfile.class)
class OidcOnlyAccessTest {

    @Test
    void withOidcAloneEveryCallNeedsAnIssuersToken() {
        SpoolFixture.assertError(given().get("/items").then().header("WWW-Authenticate", "Bearer"), 401,
                "this call needs Authorization: Bearer <an access token of the OIDC issuer (quarkus.oidc.auth-server-url)"
                        + " with the role operator or viewer>");
        SpoolFixture.assertError(given().header("Authorization", "Bearer anything").post("/drain/pause").then(), 401,
                "the token of Authorization: Bearer is not an access token of the OIDC issuer (quarkus.oidc.auth-server-url)"
                        + " that is still valid (expired, or not signed by that issuer): send a fresh one from the issuer");
        String viewer = "Bearer " + OidcTokens.of("vera", ApiTokens.VIEWER);
        given().header("Authorization", viewer).get("/items").then().statusCode(200);
        SpoolFixture.assertError(given().header("Authorization", viewer).post("/drain/pause").then(), 403,
                "this call changes something: it needs an OIDC access token with the role operator; the viewer's role only reads");
        String operator = "Bearer " + OidcTokens.of("otto", ApiTokens.OPERATOR);
        given().header("Authorization", operator).post("/drain/pause").then().statusCode(200);
        given().header("Authorization", operator).post("/drain/resume").then().statusCode(200);
    }
}
