package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.schedule.ScheduleFiring;
import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;

/**
 * The status page's Schedules section in a real headless Chromium, on the test configuration's two schedules:
 * each with its rule, next fire time, last item and its state; Pause, Resume and Run now from the page.
 */
@QuarkusTest
class StatusPageSchedulesTest extends ChromiumPageTest {

    @Inject
    DrivenClock clock;

    @Inject
    ScheduleFiring firing;

    /** Each schedule's row, its cells' text by class, read in one script (the page redraws every 2 s). */
    @SuppressWarnings("unchecked")
    static Map<String, Map<String, String>> rows() {
        List<Map<String, String>> rows = (List<Map<String, String>>) chromium.driver.executeScript(
                "return Array.from(document.querySelectorAll('#schedules tbody tr')).map(tr => {"
                        + " const o = {name: tr.dataset.name};"
                        + " Array.from(tr.cells).forEach((td, i) => { o[(td.className || 'cell' + i).split(' ')[0]] = td.innerText; });"
                        + " return o; });");
        return rows.stream().collect(Collectors.toMap(r -> r.get("name"), r -> r));
    }

    @Test
    void showsEachScheduleAndPausesResumesAndRunsOneFromThePage() {
        clock.set(Instant.parse("2026-12-05T00:59:55Z"));
        firing.tick();
        clock.advance(Duration.ofSeconds(10));
        firing.tick();

        chromium.driver.get(page.toString());
        chromium.until("both schedules' rows", d -> rows().keySet().equals(java.util.Set.of("fast", "nightly")));
        Map<String, String> fast = rows().get("fast");
        assertEquals("every 10s", fast.get("rule"));
        assertEquals("fast.20261205T010000Z", fast.get("id"));
        assertEquals("pending", fast.get("state"));
        assertEquals("on time", fast.get("status"));
        assertTrue(fast.get("next").endsWith("2026-12-05 01:00:10 UTC"), fast.get("next"));
        assertEquals("cron 0 0 2 * * ? (Europe/Berlin)", rows().get("nightly").get("rule"));
        chromium.driver.manage().window().setSize(new Dimension(390, 844));
        chromium.until("a phone's width", d -> d.manage().window().getSize().width == 390);
        assertEquals(true, chromium.driver.executeScript("return document.documentElement.scrollWidth <= window.innerWidth"),
                "the schedules' table scrolls in its own box on a phone, the page never sideways");

        chromium.click("#schedules tr[data-name='fast'] button[aria-label='Pause fast']");
        chromium.until("the pause said", d -> d.findElement(By.id("notice")).getText().equals("Paused fast for every instance."));
        given().when().get("/schedules").then().statusCode(200).body("[0].paused", equalTo(true));
        firing.tick();
        chromium.until("fast shown paused, with a Resume button", d -> rows().get("fast").get("status").equals("paused by api")
                && !d.findElements(By.cssSelector("#schedules tr[data-name='fast'] button[aria-label='Resume fast']")).isEmpty());
        chromium.click("#schedules tr[data-name='fast'] button[aria-label='Resume fast']");
        chromium.until("the resume said", d -> d.findElement(By.id("notice")).getText().equals("Resumed fast for every instance."));
        given().when().get("/schedules").then().statusCode(200).body("[0].pausedBy.paused", equalTo(false));

        chromium.click("#schedules tr[data-name='nightly'] button[aria-label='Run now nightly']");
        chromium.until("the run said, with its item", d -> d.findElement(By.id("notice")).getText()
                .equals("Fired nightly by hand: item nightly.manual-20261205T010005.000Z."));
        given().when().get("/items/nightly.manual-20261205T010005.000Z").then().statusCode(200)
                .body("state", equalTo("pending"));
    }
}
