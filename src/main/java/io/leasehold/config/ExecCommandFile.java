package io.leasehold.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An exec command naming a script by its path ({@code examples/charge.sh}, {@code /opt/run.sh --fast}) that
 * cannot run: told at start with the fix, instead of every item failing "exit 126: Permission denied" (or
 * 127, not found) one by one. Only a plain first word holding a '/' is looked at: anything else is the
 * shell's to read (a builtin, a variable, a program found on PATH).
 */
final class ExecCommandFile {

    private static final Pattern FIRST_WORD = Pattern.compile("^\\s*([A-Za-z0-9_./+-]*/[A-Za-z0-9_./+-]*)(?:\\s|$)");

    private ExecCommandFile() {
    }

    static Optional<String> problem(String command) {
        Matcher m = FIRST_WORD.matcher(command);
        if (!m.find()) {
            return Optional.empty();
        }
        String word = m.group(1);
        Path file = Path.of(word);
        String where = file.isAbsolute() ? "" : " (from " + Path.of("").toAbsolutePath() + ")";
        if (!Files.exists(file)) {
            return Optional.of("names " + word + ", which does not exist" + where + ": fix the path, or start the"
                    + " service where it is");
        }
        if (Files.isDirectory(file)) {
            return Optional.of("names " + word + ", which is a directory" + where);
        }
        if (!Files.isExecutable(file)) {
            return Optional.of("names " + word + ", which is not executable" + where + ": chmod +x " + word
                    + ", or run it as 'sh " + command.strip() + "'");
        }
        return Optional.empty();
    }
}
