package io.leasehold.app;

import io.leasehold.command.LeaseCommand;
import io.leasehold.config.ConfigPreflight;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.util.Arrays;

/**
 * The jar's entry point. {@code lease ...} is command mode, run in plain Java without booting Quarkus
 * (no HTTP server, no drain); anything else starts the service, once its configuration passed.
 */
@QuarkusMain
public class LeaseholdMain {

    public static void main(String... args) {
        if (args.length > 0 && args[0].equals("lease")) {
            System.exit(LeaseCommand.run(Arrays.asList(args).subList(1, args.length), System.out, System.err));
        }
        ConfigPreflight.stopIfInvalid();
        Quarkus.run(args);
    }
}
