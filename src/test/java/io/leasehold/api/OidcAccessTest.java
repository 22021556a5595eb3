package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * OIDC bearer tokens beside the static tokens (docs/http-api.md, "Access"): an issuer's token with the role viewer
 * reads and changes nothing, with operator changes too, with neither is refused (403); an expired or wrongly signed
 * one, or a wrong static token, is 401 naming both ways in; the static tokens work as before.
 */
@QuarkusTest
@TestProfile(OidcProfile.class)
class OidcAccessTest {

    private static final List<String> READS = List.of("/items", "/drain");

    private static Response call(String token, String method, String path) {
        var request = token == null ? given() : given().header("Authorization", "Bearer " + token);
        return request.request(method, path);
    }

    private static void pausedThenResumed(String token) {
        call(token, "POST", "/drain/pause").then().statusCode(200);
        call(token, "POST", "/drain/resume").then().statusCode(200);
    }

    @Test
    void anOidcTokenWithTheRoleViewerReadsAndChangesNothing() {
        String viewer = OidcTokens.of("vera", ApiTokens.VIEWER);
        for (String read : READS) {
            call(viewer, "GET", read).then().statusCode(200);
        }
        SpoolFixture.assertError(call(viewer, "POST", "/drain/pause").then(), 403,
                "it needs the operator's token (leasehold.api.token) or an OIDC access token with the role operator");
        call(ViewerTokenProfile.OPERATOR, "GET", "/drain").then().statusCode(200).body("paused",
                org.hamcrest.Matchers.equalTo(false));
    }

    @Test
    void anOidcTokenWithTheRoleOperatorReadsAndChanges() {
        String operator = OidcTokens.of("otto", ApiTokens.OPERATOR);
        for (String read : READS) {
            call(operator, "GET", read).then().statusCode(200);
        }
        pausedThenResumed(operator);
    }

    @Test
    void anOidcTokenWithNeitherRoleIsRefused403NamingTheRoleClaim() {
        String nobody = OidcTokens.of("nora", "auditor");
        for (String read : READS) {
            SpoolFixture.assertError(call(nobody, "GET", read).then(), 403,
                    "the OIDC access token of 'nora' has neither the role operator nor viewer");
        }
        SpoolFixture.assertError(call(nobody, "POST", "/drain/pause").then(), 403, "quarkus.oidc.roles.role-claim-path");
    }

    /**
     * The scheme followed by more than one space is the same header (RFC 9110, 11.4), as ApiTokenTest pins for the
     * static tokens: an issuer's valid token sent so is read, never refused 401 as "not still valid", which sends
     * the client for a fresh token that would be refused the same way.
     */
    @Test
    void anOidcTokenAfterMoreThanOneSpaceIsTheSameHeader() {
        String operator = OidcTokens.of("otto", ApiTokens.OPERATOR);
        for (String header : List.of("Bearer  " + operator, "bearer   " + operator)) {
            given().header("Authorization", header).get("/drain").then().statusCode(200);
        }
        given().header("Authorization", "Bearer  " + ViewerTokenProfile.OPERATOR).get("/drain").then().statusCode(200);
    }

    /** A valid token with neither role and no name claim (sub, preferred_username): the 403 never names 'null'. */
    @Test
    void aTokenWithNeitherRoleNorANameIsRefused403WithoutNamingNull() {
        String nameless = io.smallrye.jwt.build.Jwt.issuer(OidcTokens.ISSUER)
                .claim("realm_access", java.util.Map.of("roles", List.of("auditor"))).expiresIn(300).jws().keyId("1")
                .sign("privateKey.jwk");
        String error = call(nameless, "GET", "/drain").then().statusCode(403).extract().path("error");
        assertTrue(error.contains("has neither the role operator nor viewer") && !error.contains("'null'"), error);
    }

    @Test
    void anExpiredOrWronglySignedOidcTokenIs401() {
        for (String bad : List.of(OidcTokens.expired("otto", ApiTokens.OPERATOR),
                OidcTokens.signedByAnotherKey("otto", ApiTokens.OPERATOR))) {
            for (String read : READS) {
                SpoolFixture.assertError(call(bad, "GET", read).then().header("WWW-Authenticate", "Bearer"), 401,
                        "nor an access token of the OIDC issuer (quarkus.oidc.auth-server-url) that is still valid");
            }
            SpoolFixture.assertError(call(bad, "POST", "/drain/pause").then(), 401, "send the service's own, or a fresh one");
        }
    }

    @Test
    void aWrongStaticTokenIs401NamingTheTokensAndTheIssuer() {
        SpoolFixture.assertError(call("wrong", "GET", "/items").then().header("WWW-Authenticate", "Bearer"), 401,
                "the token of Authorization: Bearer is not leasehold.api.token's nor leasehold.api.viewer-token's,"
                        + " nor an access token of the OIDC issuer");
        SpoolFixture.assertError(call(null, "GET", "/items").then().header("WWW-Authenticate", "Bearer"), 401,
                "this call needs Authorization: Bearer <leasehold.api.token or leasehold.api.viewer-token, or an access"
                        + " token of the OIDC issuer (quarkus.oidc.auth-server-url) with the role operator or viewer>");
    }

    @Test
    void theStaticTokensStillWorkBesideOidc() {
        for (String read : READS) {
            call(ViewerTokenProfile.VIEWER, "GET", read).then().statusCode(200);
            call(ViewerTokenProfile.OPERATOR, "GET", read).then().statusCode(200);
        }
        SpoolFixture.assertError(call(ViewerTokenProfile.VIEWER, "POST", "/drain/pause").then(), 403,
                "it needs the operator's token (leasehold.api.token)");
        pausedThenResumed(ViewerTokenProfile.OPERATOR);
    }

    @Test
    void healthMetricsAndThePageStayOpenWithOidcOn() {
        for (String open : List.of("/q/health/ready", "/q/health/live", "/q/metrics", "/")) {
            given().when().get(open).then().statusCode(200);
            call("wrong", "GET", open).then().statusCode(200); // a bad token where none is needed is no error
        }
    }

    /** The start says who may call the API, in the lines the docs quote, OIDC's included. */
    @Test
    void theStartLinesOfAccessWithOidcAreTheOnesTheDocQuotes() throws Exception {
        String doc = Files.readString(Path.of("docs/http-api.md"));
        for (boolean[] tokens : new boolean[][] {{false, false}, {true, false}, {true, true}}) {
            String line = ApiTokens.startLine(tokens[0], tokens[1], true);
            assertTrue(doc.contains("\n" + line + "\n"), line);
        }
    }
}
