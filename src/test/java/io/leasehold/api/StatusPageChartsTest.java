package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;

/** The Activity charts on the status page, in a real headless Chromium: one point per minute of GET /stats, drawn by the page. */
@QuarkusTest
class StatusPageChartsTest extends ChromiumPageTest {

    @Inject
    DrivenClock clock;

    /** Per series of a chart, how many points its lines and lone dots have. */
    @SuppressWarnings("unchecked")
    private static Map<String, Long> points(String chart) {
        return (Map<String, Long>) chromium.driver.executeScript("const o = {};"
                + " document.querySelectorAll('#" + chart + " polyline, #" + chart + " circle').forEach(p => {"
                + "  o[p.dataset.series] = (o[p.dataset.series] || 0)"
                + "   + (p.tagName === 'circle' ? 1 : p.getAttribute('points').trim().split(' ').length); });"
                + " return o;");
    }

    @Test
    void drawsOnePointPerMinuteOfEachSeriesFromStats() {
        clock.advance(Duration.ofMinutes(3));
        for (int i = 0; i < 4; i++) {
            given().queryParam("id", SpoolFixture.uniqueId("charted")).body("p").when().post("/items").then().statusCode(201);
        }
        clock.advance(Duration.ofMinutes(1));
        given().queryParam("budget", "5s").when().post("/drain").then().statusCode(200).body("done", equalTo(4));
        var stats = given().when().get("/stats?window=1h").then().statusCode(200).extract().jsonPath();
        int minutes = stats.getInt("minutes.size()");
        // A minute the sampling tick never saw (the driven clock jumped over it) has no pending count: a gap.
        long sampled = stats.getList("minutes.pending").stream().filter(java.util.Objects::nonNull).count();

        chromium.driver.get(page.toString());
        chromium.until("the items chart drawn", d -> points("chart-items").getOrDefault("done", 0L) == minutes);
        Map<String, Long> items = points("chart-items");
        for (String series : List.of("done", "failed", "retried", "enqueued")) {
            assertEquals(minutes, items.get(series), series + ": " + items);
        }
        assertEquals(sampled, points("chart-pending").get("pending"), "a point per sampled minute");
        // The hour holds what earlier tests of this service did too: the figures are the answer's own.
        long peak = 0;
        long done = 0;
        long enqueued = 0;
        for (java.util.Map<String, Object> m : stats.<java.util.Map<String, Object>>getList("minutes")) {
            for (String series : List.of("done", "failed", "retried", "enqueued")) {
                peak = Math.max(peak, ((Number) m.get(series)).longValue());
            }
            done += ((Number) m.get("done")).longValue();
            enqueued += ((Number) m.get("enqueued")).longValue();
        }
        assertTrue(peak >= 4 && done >= 4 && enqueued >= 4, "this test's own four: " + stats.prettify());
        assertEquals("peak " + peak + " per minute", chromium.driver.findElement(By.id("chart-items-max")).getText());
        String span = chromium.driver.findElement(By.id("chart-span")).getText();
        assertTrue(span.contains("done " + done + " · ") && span.contains("enqueued " + enqueued), span);
        chromium.screenshot(Path.of("target/status-page-charts.png"));

        chromium.driver.manage().window().setSize(new Dimension(390, 844));
        chromium.until("a phone's width", d -> d.manage().window().getSize().width == 390);
        assertEquals(true, chromium.driver.executeScript("return document.documentElement.scrollWidth <= window.innerWidth"),
                "the charts shrink to a phone, the page never scrolls sideways");
    }
}
