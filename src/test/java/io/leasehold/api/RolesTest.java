package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Each role on every call (docs/http-api.md, "Access"): with both tokens set, no token is 401, the viewer's token reads
 * and is refused every change with 403 naming the operator's token, the operator's does both. Every resource method
 * says which role it needs.
 */
@QuarkusTest
@TestProfile(ViewerTokenProfile.class)
class RolesTest {

    /** Every read, and every change with arguments that would be refused for another reason only after the role check. */
    private static final List<String> READS = List.of("/items", "/items/none-such", "/items/none-such/payload",
            "/items/none-such/attempts/1/output", "/spool", "/stats", "/lease", "/drain",
            "/schedules");
    private static final List<String[]> CHANGES = List.of(new String[] {"POST", "/items?id=roles-x"},
            new String[] {"POST", "/items/batch"}, new String[] {"DELETE", "/items/none-such"},
            new String[] {"POST", "/items/none-such/retry"}, new String[] {"POST", "/items/none-such/purge"},
            new String[] {"POST", "/items/retry?state=failed"},
            new String[] {"DELETE", "/items?state=done"}, new String[] {"POST", "/drain?budget=1ms"},
            new String[] {"POST", "/drain/pause"}, new String[] {"POST", "/drain/resume"},
            new String[] {"POST", "/schedules/fast/trigger"}, new String[] {"POST", "/schedules/fast/pause"},
            new String[] {"POST", "/schedules/fast/resume"});

    private static Response call(String token, String method, String path) {
        var request = token == null ? given() : given().header("Authorization", "Bearer " + token);
        return request.contentType("application/x-ndjson").body(new byte[0]).request(method, path);
    }

    @Test
    void withoutATokenEveryCallIs401NamingBothTokens() {
        for (String read : READS) {
            SpoolFixture.assertError(call(null, "GET", read).then().header("WWW-Authenticate", "Bearer"), 401,
                    "this call needs Authorization: Bearer <leasehold.api.token or leasehold.api.viewer-token>");
        }
        for (String[] change : CHANGES) {
            SpoolFixture.assertError(call(null, change[0], change[1]).then(), 401, "this call needs Authorization: Bearer");
            SpoolFixture.assertError(call("wrong", change[0], change[1]).then(), 401,
                    "is not leasehold.api.token's nor leasehold.api.viewer-token's");
        }
    }

    @Test
    void theViewersTokenReadsEverythingAndChangesNothing() {
        for (String read : READS) {
            int status = call(ViewerTokenProfile.VIEWER, "GET", read).statusCode();
            assertTrue(status == 200 || status == 404 && read.startsWith("/items/none-such"), read + " answered " + status);
        }
        for (String[] change : CHANGES) {
            SpoolFixture.assertError(call(ViewerTokenProfile.VIEWER, change[0], change[1]).then(), 403,
                    "it needs the operator's token (leasehold.api.token)");
        }
        String id = SpoolFixture.uniqueId("viewer");
        call(ViewerTokenProfile.VIEWER, "POST", "/items?id=" + id).then().statusCode(403);
        call(ViewerTokenProfile.OPERATOR, "GET", "/items/" + id).then().statusCode(404); // nothing was enqueued
    }

    @Test
    void theOperatorsTokenReadsAndChanges() {
        for (String read : READS) {
            int status = call(ViewerTokenProfile.OPERATOR, "GET", read).statusCode();
            assertTrue(status == 200 || status == 404 && read.startsWith("/items/none-such"), read + " answered " + status);
        }
        for (String[] change : CHANGES) {
            int status = call(ViewerTokenProfile.OPERATOR, change[0], change[1]).statusCode();
            assertTrue(status != 401 && status != 403, change[0] + " " + change[1] + " answered " + status);
        }
        call(ViewerTokenProfile.OPERATOR, "POST", "/drain/resume").then().statusCode(200);
        call(ViewerTokenProfile.OPERATOR, "POST", "/schedules/fast/resume").then().statusCode(200);
    }

    /** The purge of one item: 401 without a token, 403 for the viewer's (the item kept), 200 then 404 for the operator's. */
    @Test
    void onlyTheOperatorsTokenPurgesAnItem() {
        String id = SpoolFixture.uniqueId("roles-purge");
        call(ViewerTokenProfile.OPERATOR, "POST", "/items?id=" + id).then().statusCode(201);
        call(ViewerTokenProfile.OPERATOR, "DELETE", "/items/" + id).then().statusCode(200); // failed: settled
        call(null, "POST", "/items/" + id + "/purge").then().statusCode(401);
        call(ViewerTokenProfile.VIEWER, "POST", "/items/" + id + "/purge").then().statusCode(403);
        call(ViewerTokenProfile.VIEWER, "GET", "/items/" + id).then().statusCode(200);
        call(ViewerTokenProfile.OPERATOR, "POST", "/items/" + id + "/purge").then().statusCode(200)
                .body("purged", org.hamcrest.Matchers.equalTo(1));
        call(ViewerTokenProfile.OPERATOR, "POST", "/items/" + id + "/purge").then().statusCode(404);
    }

    /** The start says who may call the API, in the lines the docs quote. */
    @Test
    void theStartLinesOfAccessAreTheOnesTheDocQuotes() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("docs/http-api.md"));
        for (boolean[] tokens : new boolean[][] {{false, false}, {true, false}, {true, true}}) {
            String line = ApiTokens.startLine(tokens[0], tokens[1]);
            assertTrue(doc.contains("\n" + line + "\n"), line);
        }
    }

    /** A resource method without a role would be open to anyone who reaches the port, whatever the tokens. */
    @Test
    void everyResourceMethodNamesTheRolesItNeeds() {
        int methods = 0;
        for (Class<?> resource : List.of(ItemsResource.class, AttemptsResource.class, PurgeItemResource.class,
                BatchResource.class, DrainResource.class, SchedulesResource.class,
                SpoolResource.class, LeaseResource.class, StatsResource.class)) {
            for (Method m : resource.getDeclaredMethods()) {
                boolean read = m.isAnnotationPresent(GET.class);
                boolean change = m.isAnnotationPresent(POST.class) || m.isAnnotationPresent(DELETE.class);
                if (!read && !change) {
                    continue;
                }
                methods++;
                RolesAllowed roles = m.isAnnotationPresent(RolesAllowed.class) ? m.getAnnotation(RolesAllowed.class)
                        : resource.getAnnotation(RolesAllowed.class);
                assertTrue(roles != null, resource.getSimpleName() + "." + m.getName() + " names no role");
                assertEquals(change ? List.of(ApiTokens.OPERATOR) : List.of(ApiTokens.VIEWER, ApiTokens.OPERATOR),
                        List.of(roles.value()), resource.getSimpleName() + "." + m.getName());
            }
        }
        assertEquals(22, methods, "every call of the API");
    }
}
