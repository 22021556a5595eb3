package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * With both tokens set the page asks for a token before it can read, refuses a wrong one, reads with the viewer's,
 * asks for the operator's at the first change the viewer's cannot make, and keeps the token for the tab only.
 */
@QuarkusTest
@TestProfile(ViewerTokenProfile.class)
class StatusPageTokenTest extends ChromiumPageTest {

    private static final String OPERATOR = "Bearer " + ViewerTokenProfile.OPERATOR;

    private static String cancelled(String prefix) {
        String id = SpoolFixture.uniqueId(prefix);
        given().header("Authorization", OPERATOR).queryParam("id", id).body("p").when().post("/items").then().statusCode(201);
        given().header("Authorization", OPERATOR).when().delete("/items/{id}", id).then().statusCode(200);
        return id;
    }

    private static String stateOf(String id) {
        return given().header("Authorization", OPERATOR).when().get("/items/{id}", id).then().statusCode(200).extract()
                .path("state");
    }

    private static WebElement element(String id) {
        return chromium.driver.findElement(By.id(id));
    }

    private static void giveToken(String token) {
        element("token-input").clear();
        element("token-input").sendKeys(token);
        element("token-submit").click();
    }

    @Test
    void thePageAsksForATokenToReadAndForTheOperatorsToChangeAndTheTabKeepsIt() {
        String first = cancelled("first");
        String second = cancelled("second");

        chromium.driver.get(page.toString());
        chromium.until("the token form, as the reads are answered 401", d -> element("token-form").isDisplayed()
                && element("token-why").getText().startsWith("This service needs an API token"));
        assertEquals(0, chromium.driver.findElements(By.cssSelector("#failed tbody tr")).size(), "nothing read without one");

        giveToken("wrong-token");
        chromium.until("the form again, saying the token was refused",
                d -> element("token-form").isDisplayed() && element("token-why").getText().contains("refused"));

        giveToken(ViewerTokenProfile.VIEWER);
        chromium.until("both failed items read with the viewer's token", d -> !element("token-form").isDisplayed()
                && d.findElements(By.cssSelector("#failed tbody tr")).size() == 2);

        chromium.click("#failed tr[data-id='" + first + "'] button.retry");
        chromium.until("the form, asking for the operator's token after the 403", d -> element("token-form").isDisplayed()
                && element("token-why").getText().contains("only reads"));
        assertEquals("failed", stateOf(first), "nothing is retried with the viewer's token");

        giveToken(ViewerTokenProfile.OPERATOR);
        chromium.until("the item retried with the operator's token", d -> stateOf(first).equals("pending"));
        chromium.until("the form gone and the page showing it", d -> !element("token-form").isDisplayed()
                && d.findElements(By.cssSelector("#failed tr[data-id='" + first + "']")).isEmpty());
        assertEquals(ViewerTokenProfile.OPERATOR, chromium.driver.executeScript(
                "return sessionStorage.getItem('leasehold.api.token')"), "kept for this tab");
        assertEquals(0L, chromium.driver.executeScript("return localStorage.length"), "and nowhere that outlives it");

        chromium.click("#failed tr[data-id='" + second + "'] button.retry");
        chromium.until("the second retried with the kept token", d -> stateOf(second).equals("pending"));
        assertFalse(element("token-form").isDisplayed(), "the kept token is not asked for again");
    }
}
