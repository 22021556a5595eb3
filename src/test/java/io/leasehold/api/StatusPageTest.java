package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Generation;
import io.leasehold.directory.SpoolFolder;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;

/**
 * The status page at / in a real headless Chromium: counts, the lease, claims, failed items and their
 * reasons as text, a retry per item and retry all, and the API still answering beside it.
 */
@QuarkusTest
@TestProfile(RecordingHandlerProfile.class)
class StatusPageTest extends ChromiumPageTest {

    /** A reason as another program may write it: markup that must show as text and never run. */
    static final String MARKUP_REASON = "<img src=x onerror=\"window.pwned=1\"> & <b>not bold</b>";

    static void enqueue(String id, String payload) {
        given().queryParam("id", id).body(payload).when().post("/items").then().statusCode(201);
    }

    /** The page's text of one element, by id. */
    static String text(String id) {
        return chromium.driver.findElement(By.id(id)).getText();
    }

    /** Reason per item id, as the page's failed table shows them. */
    static Map<String, String> failedRows() {
        return rows("failed").entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> e.getValue().get("reason")));
    }

    /**
     * The rows of a table as the page shows them, by item id: each cell's text by its class (the whole row's
     * under "row", its data-state under "data-state"). Read in one script, so between two redraws: the page
     * replaces its rows every 2 s, and an element held across a redraw is gone.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Map<String, String>> rows(String table) {
        List<Map<String, String>> rows = (List<Map<String, String>>) chromium.driver.executeScript(
                "return Array.from(document.querySelectorAll('#' + arguments[0] + ' tbody tr')).map(tr => {"
                        + " const o = {'data-id': tr.dataset.id, 'data-state': tr.dataset.state || '',"
                        + " row: tr.innerText};"
                        + " Array.from(tr.cells).forEach((td, i) => { o[td.className || 'cell' + i] = td.innerText; });"
                        + " return o; });", table);
        return rows.stream().collect(Collectors.toMap(r -> r.get("data-id"), r -> r));
    }

    @Test
    void showsCountsLeaseClaimsAndReasonsAndRetriesFromThePage() throws IOException {
        List<String> fine = List.of(SpoolFixture.uniqueId("fine"), SpoolFixture.uniqueId("fine"),
                SpoolFixture.uniqueId("fine"));
        fine.forEach(id -> enqueue(id, "ok"));
        String refused = SpoolFixture.uniqueId("refused");
        enqueue(refused, "fail");
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(3)).body("failed", equalTo(1));

        String cancelled = SpoolFixture.uniqueId("cancelled");
        enqueue(cancelled, "never run");
        given().when().delete("/items/{id}", cancelled).then().statusCode(200);
        String waiting = SpoolFixture.uniqueId("waiting");
        enqueue(waiting, "later");
        // Another instance's claim, and a failed item whose reason another program wrote.
        String held = SpoolFixture.uniqueId("held");
        Files.writeString(layout.claimFile(new ClaimName(held, Generation.parse("1-zz9").orElseThrow(),
                Instant.now())), "c");
        String marked = SpoolFixture.uniqueId("marked");
        Files.writeString(layout.file(SpoolFolder.FAILED, marked), "m");
        Files.writeString(layout.file(SpoolFolder.REASONS, marked), MARKUP_REASON);
        SpoolFixture.recount();
        given().when().get("/spool").then().statusCode(200).body("pending", equalTo(1)).body("claimed", equalTo(1))
                .body("done", equalTo(3)).body("failed", equalTo(3));

        chromium.driver.get(page.toString());
        chromium.until("the counts of GET /spool", d -> text("count-pending").equals("1")
                && text("count-claimed").equals("1") && text("count-done").equals("3") && text("count-failed").equals("3"));
        chromium.until("three failed rows", d -> failedRows().size() == 3);
        assertEquals(Map.of(refused, RecordingHandler.FAIL_REASON, cancelled, "cancelled", marked, MARKUP_REASON),
                failedRows(), "each failed item with its reason, markup as text");
        assertEquals(List.of(), chromium.driver.findElements(By.cssSelector("#failed img, #failed b")),
                "a reason's markup never becomes elements");
        assertEquals(true, chromium.driver.executeScript("return window.pwned === undefined"),
                "a reason's markup never runs");

        assertEquals("no-bus", text("lease-mode"));
        assertEquals("0", text("lease-epoch"));
        String claim = rows("claims").get(held).get("row");
        assertTrue(claim.contains("1-zz9") && claim.contains("in "),
                "the claim with its holder's generation and a lease still running: " + claim);
        String throughput = chromium.until("done per minute, from two samples",
                d -> text("throughput").equals("—") ? null : text("throughput"));
        assertEquals("0.0", throughput, "nothing was done between the samples");
        chromium.screenshot(Path.of("target/status-page.png"));
        chromium.driver.manage().window().setSize(new Dimension(390, 844));
        chromium.until("a phone's width", d -> d.manage().window().getSize().width == 390);
        assertEquals(true, chromium.driver.executeScript(
                "return document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scrolling on a phone");
        chromium.screenshot(Path.of("target/status-page-phone.png"));

        chromium.click("#failed tr[data-id='" + refused + "'] button.retry");
        chromium.until("the item retried through the API", d -> state(refused).equals("pending"));
        chromium.until("the page showing it pending, no longer failed",
                d -> text("count-pending").equals("2") && !failedRows().containsKey(refused));
        assertEquals(List.of(cancelled, marked).stream().sorted().toList(),
                failedRows().keySet().stream().sorted().toList());

        // Retry all: POST /items/retry?state=failed where it exists, else the listed items one by one.
        chromium.click("#retry-all");
        chromium.until("every failed item retried through the API",
                d -> state(cancelled).equals("pending") && state(marked).equals("pending"));
        chromium.until("the page showing none failed", d -> text("count-failed").equals("0")
                && chromium.driver.findElement(By.id("failed-empty")).isDisplayed());
        assertEquals("4", text("count-pending"));
        assertTrue(text("notice").startsWith("Retried"), text("notice"));
    }

    /**
     * A scheduled item and one parked for a retry are listed together under "Waiting to run", each with its
     * state, when it runs and (for the retry) why it waits, and counted as scheduled and retrying: each item
     * once on the page, none among the claims held. Times carry their zone; ids link to the item's JSON.
     */
    @Test
    void showsScheduledAndRetryingItemsOnceWithWhenTheyRunInUtcAndIdsLinkingToTheItem() {
        String later = SpoolFixture.uniqueId("later");
        given().queryParam("id", later).queryParam("delay", "1h").body("ok").when().post("/items").then()
                .statusCode(201).body("state", equalTo("scheduled"));
        String again = SpoolFixture.uniqueId("again");
        enqueue(again, "retry-once");
        given().when().post("/drain").then().statusCode(200).body("retried", equalTo(1));
        String cancelled = SpoolFixture.uniqueId("cancelled");
        enqueue(cancelled, "never run");
        given().when().delete("/items/{id}", cancelled).then().statusCode(200);
        SpoolFixture.recount(); // the retry's parking shows in the counts at a recount

        chromium.driver.get(page.toString());
        chromium.until("two items waiting to run", d -> rows("waiting").size() == 2);
        Map<String, Map<String, String>> waiting = rows("waiting");
        assertEquals(Map.of(later, "scheduled", again, "retrying"), waiting.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get("data-state"))));
        assertEquals("asked for one retry", waiting.get(again).get("reason"));
        assertEquals("—", waiting.get(later).get("reason"));
        for (Map<String, String> row : waiting.values()) {
            assertTrue(row.get("runs").matches("(in .+|now) · " + UTC_TIME), "when it runs: " + row);
        }
        chromium.until("counted once each, as what they are", d -> text("count-scheduled").equals("1")
                && text("count-retrying").equals("1") && text("count-claimed").equals("0"));
        assertEquals(List.of(), chromium.driver.findElements(By.cssSelector("#claims tbody tr")), "no claim is held");
        for (String id : List.of(later, again)) {
            assertEquals(1, chromium.driver.findElements(By.cssSelector("tr[data-id='" + id + "']")).size(),
                    id + " shown once");
        }
        chromium.until("the failed item", d -> failedRows().containsKey(cancelled));
        String when = rows("failed").get(cancelled).get("when");
        assertTrue(when.matches(UTC_TIME), "when it failed: " + when);
        assertTrue(text("updated").matches("updated " + UTC_TIME), text("updated"));

        assertEquals(later, rows("waiting").get(later).get("id"), "the id cell shows the id");
        chromium.click("#waiting tr[data-id='" + later + "'] td.id a");
        chromium.until("the item's page", d -> d.getCurrentUrl().endsWith("/item.html?id=" + later)
                && d.findElement(By.id("item-state")).getText().equals("scheduled"));
    }

    /** How the page writes a time: in UTC, with its zone. */
    private static final String UTC_TIME = "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC";

    @Test
    void thePageShadowsNoneOfTheApi() {
        String id = SpoolFixture.uniqueId("beside");
        enqueue(id, "p");
        given().when().get("/").then().statusCode(200).contentType(containsString("text/html"))
                .header("Cache-Control", nullValue()).body(containsString("<title>leasehold status</title>"));
        given().when().get("/status-page.js").then().statusCode(200).contentType(containsString("javascript"))
                .header("Cache-Control", nullValue());
        given().when().get("/status-page.css").then().statusCode(200).contentType(containsString("text/css"));
        given().when().get("/spool").then().statusCode(200).contentType(containsString("application/json"))
                .body("pending", equalTo(1));
        given().when().get("/items").then().statusCode(200).body("id", equalTo(List.of(id)));
        given().when().get("/items/{id}", id).then().statusCode(200).body("state", equalTo("pending"));
        given().when().get("/lease").then().statusCode(200).body("mode", equalTo("no-bus"));
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/metrics").then().statusCode(200);
        given().queryParam("format", "json").when().get("/q/openapi").then().statusCode(200)
                .body("paths", hasKey("/spool"));
        given().when().get("/q/swagger-ui/").then().statusCode(200);
        SpoolFixture.assertError(given().when().get("/items/{id}", SpoolFixture.uniqueId("ghost")).then(), 404,
                "no item");
    }
}
