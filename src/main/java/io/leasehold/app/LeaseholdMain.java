package io.leasehold.app;

import io.leasehold.cli.OperatorCli;
import io.leasehold.config.ConfigPreflight;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The jar's entry point. Any words ({@code lease ...}, {@code items ...}, {@code spool ...}, {@code help},
 * {@code --help}, {@code --version}, or a misspelling of one) are command mode, run in plain Java without
 * booting Quarkus (no HTTP server, no drain); no words at all start the service, once its configuration
 * passed. Leading {@code -Dkey=value} words are system properties either way ({@link OperatorCli#settings}).
 */
@QuarkusMain
public class LeaseholdMain {

    static {
        // The pre-flight check logs through JBoss Logging before Quarkus boots: were the JDK's own log
        // manager made then, Quarkus could never install its own (format, JSON, levels) for the service.
        if (System.getProperty("java.util.logging.manager") == null) {
            System.setProperty("java.util.logging.manager", "org.jboss.logmanager.LogManager");
        }
    }

    public static void main(String... args) {
        String[] words = OperatorCli.settings(args);
        if (words.length > 0) {
            System.exit(OperatorCli.run(words, System.out, System.err, System.in));
        }
        // The -D words are set as properties by now, which Quarkus' configuration reads; as words it ignores them.
        ConfigPreflight.stopIfInvalid();
        Quarkus.run(words);
    }
}
