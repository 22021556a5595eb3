package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.directory.SpoolFolder;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;

/** The Failed section's search and paging on the status page, in a real headless Chromium, over 230 failed items. */
@QuarkusTest
class StatusPageSearchTest extends ChromiumPageTest {

    @SuppressWarnings("unchecked")
    private static List<String> failedIds() {
        return (List<String>) chromium.driver.executeScript(
                "return Array.from(document.querySelectorAll('#failed tbody tr')).map(tr => tr.dataset.id);");
    }

    private static String text(String id) {
        return chromium.driver.findElement(By.id(id)).getText();
    }

    @Test
    void searchFindsByIdStartOrReasonAndNextPageWalksEveryFailedItemOnce() throws Exception {
        Instant t = Instant.parse("2026-12-07T10:00:00Z");
        List<String> ids = IntStream.range(0, 230).mapToObj(i -> String.format("f-%03d", i)).toList();
        for (String id : ids) { // planted as a settlement leaves them, one second apart
            Files.setLastModifiedTime(Files.writeString(layout.file(SpoolFolder.FAILED, id), "p"), FileTime.from(t));
            Files.writeString(layout.file(SpoolFolder.IDS, id), "");
            t = t.plusSeconds(1);
        }
        SpoolFixture.recount();
        chromium.driver.get(page.toString());
        chromium.until("the first 100 failed", d -> failedIds().size() == 100 && text("failed-shown").equals("(first 100 of 230)"));
        List<String> seen = new ArrayList<>(failedIds());
        chromium.click("#failed-next");
        chromium.until("page 2", d -> text("failed-shown").equals("(page 2 · 230 failed)") && failedIds().get(0).equals("f-100"));
        seen.addAll(failedIds());
        chromium.click("#failed-next");
        chromium.until("page 3, the last", d -> text("failed-shown").equals("(page 3 · 230 failed)") && failedIds().size() == 30
                && !d.findElement(By.id("failed-next")).isEnabled());
        seen.addAll(failedIds());
        assertEquals(ids, seen, "every failed item once, oldest first");

        chromium.click("#failed-first");
        chromium.until("back to the first page", d -> failedIds().get(0).equals("f-000"));
        chromium.driver.findElement(By.id("failed-search")).sendKeys("f-12");
        chromium.until("the ids starting f-12", d -> failedIds().equals(IntStream.range(120, 130)
                .mapToObj(i -> String.format("f-%03d", i)).toList()) && text("failed-shown").equals("(10 matching)"));
        assertTrue(!chromium.driver.findElement(By.id("retry-all")).isEnabled(), "Retry all would move more than is shown");

        chromium.driver.findElement(By.id("failed-search")).clear();
        chromium.driver.findElement(By.id("failed-search")).sendKeys("NO REASON");
        chromium.until("every one by its reason, a page of them", d -> failedIds().size() == 100
                && text("failed-shown").equals("(100+ matching)") && d.findElement(By.id("failed-next")).isEnabled());
        chromium.driver.findElement(By.id("failed-search")).sendKeys(" at all");
        chromium.until("none", d -> failedIds().isEmpty()
                && text("failed-empty").equals("No failed item matches \"NO REASON at all\"."));

        chromium.driver.manage().window().setSize(new Dimension(390, 844));
        chromium.until("a phone's width", d -> d.manage().window().getSize().width == 390);
        assertEquals(true, chromium.driver.executeScript("return document.documentElement.scrollWidth <= window.innerWidth"),
                "the search row wraps on a phone, the page never scrolls sideways");
    }
}
