package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/** With leasehold.api.token set the page reads without it, asks for it at the first refused retry, and keeps it for the tab. */
@QuarkusTest
@TestProfile(ApiTokenProfile.class)
class StatusPageTokenTest extends ChromiumPageTest {

    private static final String RIGHT = "Bearer " + ApiTokenProfile.TOKEN;

    private static String cancelled(String prefix) {
        String id = SpoolFixture.uniqueId(prefix);
        given().header("Authorization", RIGHT).queryParam("id", id).body("p").when().post("/items").then().statusCode(201);
        given().header("Authorization", RIGHT).when().delete("/items/{id}", id).then().statusCode(200);
        return id;
    }

    private static WebElement element(String id) {
        return chromium.driver.findElement(By.id(id));
    }

    private static void retryOnPage(String id) {
        chromium.click("#failed tr[data-id='" + id + "'] button.retry");
    }

    private static void giveToken(String token) {
        element("token-input").clear();
        element("token-input").sendKeys(token);
        element("token-submit").click();
    }

    @Test
    void aRefusedRetryAsksForTheTokenAndTheTabKeepsIt() {
        String first = cancelled("first");
        String second = cancelled("second");

        chromium.driver.get(page.toString());
        chromium.until("both failed items listed without a token",
                d -> d.findElements(By.cssSelector("#failed tbody tr")).size() == 2);
        assertFalse(element("token-form").isDisplayed(), "reads need no token");

        retryOnPage(first);
        chromium.until("the token form, after the 401", d -> element("token-form").isDisplayed());
        assertEquals("failed", state(first), "nothing is retried without the token");

        giveToken("wrong-token");
        chromium.until("the form again, saying the token was refused",
                d -> element("token-form").isDisplayed() && element("token-why").getText().contains("refused"));
        assertEquals("failed", state(first), "nothing is retried with a wrong token");

        giveToken(ApiTokenProfile.TOKEN);
        chromium.until("the item retried through the API with the token", d -> state(first).equals("pending"));
        chromium.until("the form gone and the page showing it", d -> !element("token-form").isDisplayed()
                && d.findElements(By.cssSelector("#failed tr[data-id='" + first + "']")).isEmpty());
        assertEquals(ApiTokenProfile.TOKEN, chromium.driver.executeScript(
                "return sessionStorage.getItem('leasehold.api.token')"), "kept for this tab");
        assertEquals(0L, chromium.driver.executeScript("return localStorage.length"), "and nowhere that outlives it");

        retryOnPage(second);
        chromium.until("the second retried with the kept token", d -> state(second).equals("pending"));
        assertFalse(element("token-form").isDisplayed(), "the kept token is not asked for again");
    }
}
