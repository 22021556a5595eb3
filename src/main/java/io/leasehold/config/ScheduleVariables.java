package io.leasehold.config;

import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Environment variables of schedules that the mapping would drop without a word: {@code LEASEHOLD_SCHEDULES_<NAME>_<SETTING>}
 * with a setting it does not know ({@code _CORN}), or a name with an underscore, which stands for a dot, a dash or
 * an underscore alike there (the variable names no schedule the service can tell). A schedule that never fires and
 * says nothing is the worst way to learn of a typo, so these stop the start as a misspelt key does.
 */
final class ScheduleVariables {

    private static final String PREFIX = "LEASEHOLD_SCHEDULES_";
    private static final List<String> SETTINGS = List.of("_CRON", "_EVERY", "_TIME_ZONE", "_PAYLOAD", "_MISFIRE",
            "_MAX_CATCH_UP", "_PAUSED");

    private ScheduleVariables() {
    }

    static void check(Problems problems, Config config) {
        for (ConfigSource source : config.getConfigSources()) {
            if (!source.getName().startsWith("EnvConfigSource")) {
                continue;
            }
            for (String variable : source.getPropertyNames()) {
                problem(variable).ifPresent(why -> problems.add(variable, why));
            }
        }
    }

    /** Why {@code variable} names no schedule's setting; empty when it does, or is no schedule's variable. */
    static Optional<String> problem(String variable) {
        if (!variable.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String rest = variable.substring(PREFIX.length());
        Optional<String> setting = SETTINGS.stream().filter(rest::endsWith).findFirst();
        if (setting.isEmpty() || rest.length() == setting.get().length()) {
            return Optional.of("is no schedule's setting: a schedule's variable is LEASEHOLD_SCHEDULES_<NAME> followed by one"
                    + " of _CRON, _EVERY, _TIME_ZONE, _PAYLOAD, _MISFIRE, _MAX_CATCH_UP, _PAUSED (docs/schedules.md)");
        }
        String name = rest.substring(0, rest.length() - setting.get().length());
        if (name.contains("_")) {
            return Optional.of("names a schedule with a '_' in it, which an environment variable cannot tell from a '.'"
                    + " or a '-': give this schedule as leasehold.schedules.<name>" + setting.get().toLowerCase(java.util.Locale.ROOT)
                            .replace('_', '-').replaceFirst("^-", ".") + " in application.properties or with -D");
        }
        return Optional.empty();
    }
}
