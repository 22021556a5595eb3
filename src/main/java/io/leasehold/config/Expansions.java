package io.leasehold.config;

import io.leasehold.config.ConfigCheck.InvalidConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.eclipse.microprofile.config.Config;

/**
 * Every {@code leasehold.*} value whose {@code ${...}} cannot be expanded stops the start. The mapping
 * reads such a value of an optional key as unset, silently: {@code leasehold.api.token=abc${NOPE}} would
 * turn the token check off, and a password or a command would go missing under another key's complaint.
 */
final class Expansions {

    private Expansions() {
    }

    static void require(Config config) {
        List<String> problems = new ArrayList<>();
        for (String name : config.getPropertyNames()) {
            if (!name.startsWith("leasehold.")) {
                continue;
            }
            try {
                config.getValue(name, String.class); // getOptionalValue answers empty here, as the mapping does
            } catch (NoSuchElementException e) {
                if (String.valueOf(e.getMessage()).contains("expand")) { // not a value set empty: that is unset
                    problems.add(MappedConfig.oneLine(e.getMessage()));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(String.join("; ", problems));
        }
    }
}
