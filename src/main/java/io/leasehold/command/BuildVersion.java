package io.leasehold.command;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The project version the build wrote into {@code version.properties} (Maven filters it): a resource, not
 * the jar's manifest, so that a native runner, which has no manifest, prints it too.
 */
public final class BuildVersion implements CommandLine.IVersionProvider {

    private static final String RESOURCE = "version.properties";

    /** "leasehold 0.1.0-SNAPSHOT", as {@code --version} prints it. */
    public static String line() {
        return "leasehold " + number();
    }

    public static String number() {
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "unknown"; // run from an IDE's classes without Maven's resources
            }
            Properties facts = new Properties();
            facts.load(in);
            return facts.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {line()};
    }
}
