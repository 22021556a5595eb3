package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;

/** The fleet's drain pause on the status page, in a real headless Chromium: shown, paused and resumed from the page. */
@QuarkusTest
class StatusPageDrainTest extends ChromiumPageTest {

    @AfterEach
    void resumed() {
        given().when().post("/drain/resume").then().statusCode(200);
    }

    private static String stateText() {
        return chromium.driver.findElement(By.id("drain-state")).getText();
    }

    @Test
    void aPauseFromThePageIsKeptForTheFleetAndShownWithWhoAndSinceThenResumed() {
        given().when().post("/drain/resume").then().statusCode(200);
        chromium.driver.get(page.toString());
        chromium.until("the drain shown running", d -> stateText().equals("Drain running: every instance claims new items.")
                && d.findElement(By.id("drain-toggle")).getText().equals("Pause drain")
                && d.findElement(By.id("drain-toggle")).isEnabled());

        chromium.click("#drain-toggle");
        chromium.until("the pause said", d -> d.findElement(By.id("notice")).getText()
                .equals("Paused the drain for every instance: each stops claiming within its poll interval."));
        given().when().get("/drain").then().statusCode(200).body("paused", equalTo(true));
        chromium.until("shown paused, by whom, with a Resume button", d -> stateText().matches(
                "Drain paused for every instance since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC by api on \\S+ pid \\d+:"
                        + " held work finishes, no new attempt starts\\.")
                && d.findElement(By.id("drain-toggle")).getText().equals("Resume drain"));
        assertTrue(chromium.driver.findElement(By.id("drain-state")).getAttribute("class").contains("paused"));
        chromium.screenshot(Path.of("target/status-page-paused.png"));

        chromium.driver.manage().window().setSize(new Dimension(390, 844));
        chromium.until("a phone's width", d -> d.manage().window().getSize().width == 390);
        assertEquals(true, chromium.driver.executeScript("return document.documentElement.scrollWidth <= window.innerWidth"),
                "the pause's line wraps on a phone, the page never scrolls sideways");

        chromium.click("#drain-toggle");
        chromium.until("the resume said", d -> d.findElement(By.id("notice")).getText()
                .equals("Resumed the drain for every instance."));
        given().when().get("/drain").then().statusCode(200).body("paused", equalTo(false));
        chromium.until("shown running again", d -> stateText().equals("Drain running: every instance claims new items."));
    }
}
