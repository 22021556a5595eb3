package io.leasehold.api;

import static io.restassured.RestAssured.given;

import io.leasehold.directory.SpoolLayout;
import io.quarkus.test.common.http.TestHTTPResource;
import jakarta.inject.Inject;
import java.net.URL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** A status page test: one headless Chromium for the class, the page's address, an empty spool per test. */
abstract class ChromiumPageTest {

    @TestHTTPResource("/")
    URL page;

    @Inject
    SpoolLayout layout;

    static HeadlessChromium chromium;

    @BeforeAll
    static void startBrowser() {
        chromium = HeadlessChromium.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (chromium != null) {
            chromium.close();
            chromium = null;
        }
    }

    @BeforeEach
    void emptySpool() {
        SpoolFixture.empty(layout);
    }

    /** The item's state as the API answers it: what a click on the page must have changed. */
    static String state(String id) {
        return given().when().get("/items/{id}", id).then().statusCode(200).extract().path("state");
    }
}
