package io.leasehold.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The instructions of a Dockerfile that a deployment depends on: ENV, VOLUME, EXPOSE, USER, ENTRYPOINT. */
record Dockerfile(Path file, Map<String, String> env, List<String> volumes, List<Integer> exposed, String user,
        List<String> entrypoint) {

    static final Path JVM = Path.of("src/main/docker/Dockerfile.jvm");
    static final Path NATIVE = Path.of("src/main/docker/Dockerfile.native-micro");

    private static final Pattern ENV = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\\S+)");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

    static Dockerfile read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> env = new LinkedHashMap<>();
        List<String> volumes = new ArrayList<>();
        List<Integer> exposed = new ArrayList<>();
        String user = null;
        List<String> entrypoint = List.of();
        // Continuation lines belong to the instruction before them.
        for (String line : text.replaceAll("\\\\\\r?\\n", " ").split("\\r?\\n")) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] parts = trimmed.split("\\s+", 2);
            String args = parts.length > 1 ? parts[1].trim() : "";
            switch (parts[0].toUpperCase()) {
                case "ENV" -> {
                    Matcher m = ENV.matcher(args);
                    while (m.find()) {
                        env.put(m.group(1), unquote(m.group(2)));
                    }
                }
                case "VOLUME" -> volumes.addAll(words(args));
                case "EXPOSE" -> words(args).forEach(p -> exposed.add(Integer.parseInt(p.replaceAll("/.*", ""))));
                case "USER" -> user = args;
                case "ENTRYPOINT" -> entrypoint = words(args);
                default -> {
                }
            }
        }
        return new Dockerfile(file, env, volumes, exposed, user, entrypoint);
    }

    /** The words of a shell-form or JSON-array-form argument list. */
    private static List<String> words(String args) {
        List<String> out = new ArrayList<>();
        if (args.startsWith("[")) {
            Matcher m = QUOTED.matcher(args);
            while (m.find()) {
                out.add(m.group(1));
            }
            return out;
        }
        return List.of(args.split("\\s+"));
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && (value.startsWith("\"") || value.startsWith("'"))) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }
}
