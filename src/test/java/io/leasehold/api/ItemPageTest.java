package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.testing.DrivenClock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.support.ui.ExpectedConditions;

/** The item page (/item.html?id=ID) in a real headless Chromium: state, payload, attempts, Cancel, Retry and Purge. */
@QuarkusTest
@TestProfile(RecordingHandlerProfile.class) // "retry-once" asks for one retry
class ItemPageTest extends ChromiumPageTest {

    @Inject
    DrivenClock clock;

    private static String text(String id) {
        return chromium.driver.findElement(By.id(id)).getText();
    }

    private void open(String id) {
        chromium.driver.get(page.toString() + "item.html?id=" + id);
    }

    @Test
    void showsAPendingItemsPayloadAndCancelsAndRetriesIt() {
        String id = SpoolFixture.uniqueId("paged");
        given().queryParam("id", id).body("hello <b>world</b>").when().post("/items").then().statusCode(201);
        open(id);
        chromium.until("its state and payload", d -> text("item-state").equals("pending")
                && text("payload").equals("hello <b>world</b>") && text("payload-size").equals("(18 bytes)"));
        assertTrue(chromium.driver.findElement(By.id("history-empty")).isDisplayed(), "no attempt yet");
        assertTrue(chromium.driver.findElement(By.id("item-cancel")).isDisplayed());

        chromium.click("#item-cancel");
        chromium.until("cancelled", d -> text("item-state").equals("failed") && text("notice").startsWith("Cancelled")
                && d.findElement(By.id("item-retry")).isDisplayed());
        assertEquals("failed", state(id));
        assertTrue(text("item-fields").contains("cancelled"), text("item-fields"));
        chromium.click("#item-retry");
        chromium.until("retried", d -> text("item-state").equals("pending"));
        assertEquals("pending", state(id));
    }

    @Test
    void listsEveryAttemptWithItsOutcomeLatestFirst() {
        String id = SpoolFixture.uniqueId("twice");
        given().queryParam("id", id).body("retry-once").when().post("/items").then().statusCode(201);
        given().when().post("/drain").then().statusCode(200).body("retried", equalTo(1));
        clock.set(clock.now().plus(Duration.ofMinutes(6))); // past the backoff
        given().when().post("/drain").then().statusCode(200).body("done", equalTo(1));
        open(id);
        chromium.until("both attempts", d -> d.findElements(By.cssSelector("#history tbody tr")).size() == 2);
        @SuppressWarnings("unchecked")
        List<String> outcomes = (List<String>) chromium.driver.executeScript(
                "return Array.from(document.querySelectorAll('#history tbody tr')).map(tr => tr.dataset.attempt + ' '"
                        + " + tr.querySelector('.outcome').textContent + ' ' + tr.querySelector('.reason').textContent);");
        assertEquals(List.of("2 done —", "1 retry asked for one retry"), outcomes);
        assertEquals("done", text("item-state"));
        // Each attempt's own output, as the handler reported it, shown as text (never as HTML).
        chromium.click("#history tbody tr[data-attempt='1'] button");
        chromium.until("attempt 1's output", d -> text("attempt-output-body").contains("attempt 1 of " + id));
        assertEquals("Output of attempt 1", text("attempt-output-title"));
        assertTrue(text("attempt-output-body").startsWith("test-recording · status 1\nlog ("), text("attempt-output-body"));
        assertTrue(text("attempt-output-body").contains("<b>not html</b>"), text("attempt-output-body"));
        chromium.click("#history tbody tr[data-attempt='2'] button");
        chromium.until("attempt 2's output", d -> text("attempt-output-body").contains("attempt 2 of " + id));
        chromium.screenshot(Path.of("target/item-page.png"));
        chromium.driver.manage().window().setSize(new Dimension(390, 844));
        chromium.until("a phone's width", d -> d.manage().window().getSize().width == 390);
        assertEquals(true, chromium.driver.executeScript("return document.documentElement.scrollWidth <= window.innerWidth"),
                "the attempts' table scrolls in its own box on a phone");
        chromium.driver.manage().window().setSize(new Dimension(1100, 1000));
    }

    /**
     * Purge is offered for a settled item only, at a desktop's and a phone's width; it asks first (a dismissed
     * question purges nothing), then says the item was purged and shows no item any more.
     */
    @Test
    void aSettledItemIsPurgedAfterAConfirmAndThePageThenShowsNoItem() {
        for (Dimension size : List.of(new Dimension(1100, 1000), new Dimension(390, 844))) {
            chromium.driver.manage().window().setSize(size);
            String pending = SpoolFixture.uniqueId("unsettled");
            given().queryParam("id", pending).body("p").when().post("/items").then().statusCode(201);
            open(pending);
            chromium.until("pending", d -> text("item-state").equals("pending"));
            assertTrue(!chromium.driver.findElement(By.id("item-purge")).isDisplayed(), "no purge of a pending item");

            String id = SpoolFixture.uniqueId("purged");
            given().queryParam("id", id).body("bye").when().post("/items").then().statusCode(201);
            given().when().delete("/items/{id}", id).then().statusCode(200); // failed, reason cancelled: settled
            open(id);
            chromium.until("Purge shown", d -> text("item-state").equals("failed")
                    && d.findElement(By.id("item-purge")).isDisplayed());
            chromium.click("#item-purge");
            var question = chromium.until("the question", ExpectedConditions.alertIsPresent());
            assertTrue(question.getText().startsWith("Purge item \"" + id + "\"?"), question.getText());
            question.dismiss();
            assertEquals("failed", state(id), "a dismissed question purges nothing");

            chromium.click("#item-purge");
            chromium.until("the question", ExpectedConditions.alertIsPresent()).accept();
            chromium.until("purged", d -> text("notice").equals("Purged: the item is gone; its id may be enqueued again.")
                    && text("problem").isEmpty() // purged from here: no problem to report
                    && text("item-state").equals("none") && text("payload").equals("—")
                    && !d.findElement(By.id("item-purge")).isDisplayed());
            given().when().get("/items/{id}", id).then().statusCode(404);
            chromium.screenshot(Path.of("target/item-page-purged-" + size.width + ".png"));
            // The page keeps looking: the id enqueued again shows up by itself, with its own payload.
            given().queryParam("id", id).body("again " + size.width).when().post("/items").then().statusCode(201);
            chromium.until("enqueued again", d -> text("item-state").equals("pending")
                    && text("payload").equals("again " + size.width));
            assertEquals(true, chromium.driver.executeScript("return document.documentElement.scrollWidth <= window.innerWidth"),
                    "no sideways scroll at " + size);
        }
        chromium.driver.manage().window().setSize(new Dimension(1100, 1000));
    }

    @Test
    void aBinaryPayloadIsShownAsHexAndAnUnknownIdSaysSo() {
        String id = SpoolFixture.uniqueId("binary");
        given().queryParam("id", id).body(new byte[] {0, 1, (byte) 0xfe, (byte) 0xff}).when().post("/items").then()
                .statusCode(201);
        open(id);
        chromium.until("its bytes in hex", d -> text("payload").equals("00 01 fe ff")
                && text("payload-size").equals("(4 bytes) · not UTF-8 text: its bytes in hex"));
        given().when().get("/items/{id}/payload", id).then().statusCode(200).contentType("application/octet-stream");

        open("no-such-item");
        chromium.until("no such item", d -> text("problem").equals("No item \"no-such-item\": never enqueued, or purged."));
    }

    /** Done at its first attempt, an item keeps no history: its output is still one click away, or says why not. */
    @Test
    void anItemDoneAtItsFirstAttemptOffersItsOutputAndSaysWhenNoneWasKept() {
        String id = SpoolFixture.uniqueId("silent");
        given().queryParam("id", id).body("quiet").when().post("/items").then().statusCode(201);
        given().when().post("/drain").then().statusCode(200);
        open(id);
        chromium.until("done", d -> text("item-state").equals("done") && d.findElement(By.id("first-output")).isDisplayed());
        chromium.click("#first-output");
        chromium.until("no output", d -> text("attempt-output-body").startsWith("Not shown: no output is kept for attempt 1"
                + " of item '" + id + "': no such attempt ran, its handler showed nothing"));
    }
}
