package io.leasehold.api;

import static org.junit.jupiter.api.Assertions.fail;

import io.leasehold.testing.UniqueNames;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's chromium, headless, driven by its chromedriver: both paths are given, so Selenium Manager is
 * never asked for (and never downloads) a browser or a driver. Missing packages fail the test, naming them.
 */
final class HeadlessChromium implements AutoCloseable {

    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    /** Long enough for a loaded CI machine; every wait ends as soon as its condition holds. */
    static final Duration PATIENCE = Duration.ofSeconds(20);

    final ChromeDriver driver;

    private HeadlessChromium(ChromeDriver driver) {
        this.driver = driver;
    }

    static HeadlessChromium start() {
        for (Path needed : new Path[] {BROWSER, DRIVER}) {
            if (!Files.isExecutable(needed)) {
                fail(needed + " is missing: the status page's browser tests need Debian's chromium and its driver"
                        + " (apt-get install -y chromium chromium-driver; .ci/run installs them)");
            }
        }
        // What Selenium reads before it would consult Selenium Manager; the service below names it too.
        System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, DRIVER.toString());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(new File("target/chromedriver-" + UniqueNames.next() + ".log"))
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1100,1300");
        return new HeadlessChromium(new ChromeDriver(service, options));
    }

    /** Waits up to {@link #PATIENCE} for the condition to answer true (or non-null), failing with what it waited for. */
    <T> T until(String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, PATIENCE, Duration.ofMillis(100)).withMessage(what).until(condition);
    }

    /**
     * Clicks the element {@code css} names, found afresh until it is there between two redraws: the status
     * page replaces its table rows every 2 s, and an element held across a redraw is gone.
     */
    void click(String css) {
        until("a click on " + css, d -> {
            try {
                d.findElement(By.cssSelector(css)).click();
                return true;
            } catch (StaleElementReferenceException | NoSuchElementException e) {
                return null;
            }
        });
    }

    void screenshot(Path to) {
        try {
            Files.createDirectories(to.getParent());
            Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
