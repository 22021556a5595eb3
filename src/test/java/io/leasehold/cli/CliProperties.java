package io.leasehold.cli;

import java.util.Properties;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The command line reads its configuration from system properties, as the jar does: each test starts without the
 * {@code leasehold.*} ones that another test of the JVM left (a {@code @QuarkusTest} profile still running, say a
 * JetStream spool's), and every property is as it was after it.
 */
final class CliProperties implements BeforeEachCallback, AfterEachCallback {

    private Properties before;

    @Override
    public void beforeEach(ExtensionContext context) {
        before = (Properties) System.getProperties().clone();
        before.stringPropertyNames().stream().filter(k -> k.startsWith("leasehold.")).forEach(System::clearProperty);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        System.setProperties(before);
    }
}
