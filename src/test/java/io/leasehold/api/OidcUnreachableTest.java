package io.leasehold.api;

import static io.restassured.RestAssured.given;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * An issuer that cannot be reached does not stop the start (Quarkus tries again at each call with a token); a call
 * whose token only the issuer could check is then 503 naming the key, and the static tokens keep working.
 */
@QuarkusTest
@TestProfile(OidcUnreachableProfile.class)
class OidcUnreachableTest {

    @Test
    void anUnreachableIssuerIs503NamingItsKeyAndTheStaticTokensStillWork() {
        String token = "Bearer " + OidcTokens.of("otto", ApiTokens.OPERATOR);
        SpoolFixture.assertError(given().header("Authorization", token).get("/items").then().header("Retry-After", "5"),
                503, "the OIDC issuer (quarkus.oidc.auth-server-url) could not check the token");
        SpoolFixture.assertError(given().header("Authorization", token).post("/drain/pause").then(), 503,
                "see that it is up and that the URL is right; leasehold.api.token works meanwhile");
        given().header("Authorization", "Bearer " + ViewerTokenProfile.OPERATOR).get("/items").then().statusCode(200);
        // A mistyped static token, or any bearer that is no JWT, is no OIDC token: 401 to fix, not 503 to wait out.
        SpoolFixture.assertError(given().header("Authorization", "Bearer " + ViewerTokenProfile.OPERATOR + "x")
                .get("/items").then(), 401, "the token of Authorization: Bearer is not");
        SpoolFixture.assertError(given().header("Authorization", "Bearer notajwt").post("/drain/pause").then(), 401,
                "the token of Authorization: Bearer is not");
        given().header("Authorization", "Bearer " + ViewerTokenProfile.VIEWER).get("/drain").then().statusCode(200);
    }
}
