package io.leasehold.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packaged artifact as users run it: the jar here, the native binary where GraalVM exists
 * ({@code ./mvnw verify -Dnative}). One item goes the whole way through the HTTP API.
 */
@QuarkusIntegrationTest
@QuarkusTestResource(value = PackagedServiceIT.OwnSpool.class, restrictToAnnotatedClass = true)
class PackagedServiceIT {

    /** Each run gets a spool of its own, passed to the packaged artifact as a setting. */
    public static class OwnSpool implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            try {
                Path spool = Files.createTempDirectory("leasehold-packaged-");
                return Map.of("leasehold.spool.dir", spool.toString(), "leasehold.drain.auto", "false");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void stop() {
        }
    }

    @Test
    void anItemGoesThroughTheWholeService() {
        given().body("hello").when().post("/items?id=packaged-1").then().statusCode(201)
                .body("state", equalTo("pending"));
        given().when().post("/drain?budget=10s").then().statusCode(200)
                .body("done", equalTo(1)).body("idle", equalTo(true));
        given().when().get("/items/packaged-1").then().statusCode(200).body("state", equalTo("done"));
    }

    @Test
    void itStandsWithoutABusAndIsReady() {
        given().when().get("/lease").then().statusCode(200).body("mode", equalTo("no-bus")).body("epoch", equalTo(0));
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/metrics").then().statusCode(200);
    }
}
