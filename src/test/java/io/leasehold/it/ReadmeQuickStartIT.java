package io.leasehold.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.leasehold.core.HolderTag;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The README's quick start, pasted as written: its shell blocks run in order in one bash, in a fresh
 * directory holding the repository's {@code examples/} and the packaged {@code target/quarkus-app}, and what
 * each prints is the text block that follows it in the README. Only what differs from run to run is
 * read loosely ({@link #normalized}): times, process ids, host names, the lease's revision.
 */
@Isolated // the README's fixed ports, and its sample of two instances sharing the work: run alone, as a reader runs it
class ReadmeQuickStartIT {

    private static final Path README = Path.of("README.md");
    private static final long DEADLINE_SECONDS = 300;
    /** The ports the quick start names; a test cannot move them without changing what it checks. */
    private static final int[] PORTS = {8080, 8081, 8082, 8083, 8084, 14222};
    private static final String END = "@@ end of block ";

    record Block(String commands, String expected) {
    }

    static List<Block> quickStart() throws IOException {
        String readme = Files.readString(README);
        int start = readme.indexOf("\n## Quick start\n");
        assertTrue(start >= 0, "README.md has a Quick start section");
        String section = readme.substring(start, readme.indexOf("\n## ", start + 1));
        Matcher fence = Pattern.compile("(?s)\n```(sh|text)\n(.*?)\n```").matcher(section);
        List<Block> blocks = new ArrayList<>();
        String commands = null;
        while (fence.find()) {
            if (fence.group(1).equals("sh")) {
                assertEquals(null, commands, "every shell block is followed by the text it prints:\n" + commands);
                commands = fence.group(2);
            } else {
                assertTrue(commands != null, "a text block follows a shell block:\n" + fence.group(2));
                blocks.add(new Block(commands, fence.group(2)));
                commands = null;
            }
        }
        assertEquals(null, commands, "the last shell block is followed by the text it prints");
        return blocks;
    }

    @Test
    void theQuickStartRunsAsWrittenAndPrintsWhatTheReadmeShows() throws Exception {
        List<Block> blocks = quickStart();
        assertTrue(blocks.size() >= 5, "one instance, two on one spool, two under the lease: " + blocks.size());
        for (int port : PORTS) {
            assertTrue(free(port), "the quick start needs port " + port + ", which something else listens on");
        }
        Path dir = Files.createDirectories(Path.of("target", "it-work", "quick-start-" + System.nanoTime()))
                .toAbsolutePath();
        Files.createSymbolicLink(dir.resolve("examples"), Path.of("examples").toAbsolutePath());
        Files.createSymbolicLink(Files.createDirectories(dir.resolve("target")).resolve("quarkus-app"),
                Path.of("target", "quarkus-app").toAbsolutePath());
        StringBuilder script = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            script.append(blocks.get(i).commands()).append("\necho '").append(END).append(i).append("'\n");
        }
        Path scriptFile = Files.writeString(dir.resolve("quick-start.sh"), script);
        Path out = dir.resolve("stdout");
        ProcessBuilder builder = new ProcessBuilder("bash", scriptFile.toString()).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(dir.resolve("stderr").toFile())
                .redirectInput(new File("/dev/null"));
        // A newcomer's shell: none of the build's own settings.
        builder.environment().keySet().removeIf(k -> k.equals("NATS_URL") || k.equals("K_SINK")
                || k.startsWith("LEASEHOLD_") || k.startsWith("QUARKUS_"));
        Process bash = builder.start();
        try {
            if (!bash.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
                fail("the quick start did not end within " + DEADLINE_SECONDS + " s; it printed:\n"
                        + Files.readString(out) + "\nstderr:\n" + Files.readString(dir.resolve("stderr")));
            }
        } finally {
            bash.descendants().forEach(ProcessHandle::destroyForcibly);
            bash.destroyForcibly();
        }
        String printed = Files.readString(out, StandardCharsets.UTF_8);
        String[] parts = printed.split("(?m)^" + Pattern.quote(END) + "\\d+\n", -1);
        String context = "\nstdout:\n" + printed + "\nstderr:\n" + Files.readString(dir.resolve("stderr"));
        assertEquals(blocks.size() + 1, parts.length, "every block ran to its end" + context);
        try (var logs = Files.list(dir)) {
            for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("instance-")).toList()) {
                assertTrue(!Files.readString(log).contains("could not release the controller lease"),
                        log + ": the quick start's stop releases the lease (instances before NATS)" + context);
            }
        }
        for (int i = 0; i < blocks.size(); i++) {
            assertEquals(normalized(blocks.get(i).expected(), "vm"), normalized(parts[i].strip(), hostName()),
                    "block " + (i + 1) + " prints what the README shows after it:\n" + blocks.get(i).commands() + context);
        }
    }

    /**
     * The text with what differs between runs and machines made alike: instants, the instance's name
     * (host and pid, {@code vmp6004} where the README's sample ran on host {@code vm}), the lease's revision
     * (one more at each renewal), and runs of spaces (a table's columns widen with a longer host name).
     */
    static String normalized(String text, String host) {
        // The holder is the host kept to [a-z0-9] and cut to make room for the pid: its first letter is sure.
        String first = HolderTag.named(host).text().substring(0, 1);
        return text.replaceAll("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z", "<instant>")
                .replaceAll("\\d{8}T\\d{6}(\\.\\d{3})?Z", "<instant>")
                .replaceAll("leasehold@\\S+ pid \\d+", "leasehold@<host> pid <pid>")
                .replaceAll("\"host\":\"[^\"]*\"", "\"host\":\"<host>\"")
                .replaceAll("\\b" + first + "[a-z0-9]*p\\d+\\b", "<holder>")
                .replaceAll("\"revision\":\\d+", "\"revision\":<n>")
                .replaceAll("[ \\t]+", " ").strip();
    }

    private static String hostName() throws IOException {
        return InetAddress.getLocalHost().getHostName();
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("0.0.0.0", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
