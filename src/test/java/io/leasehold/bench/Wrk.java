package io.leasehold.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code POST /items} from wrk, a load generator outside the JVM (Debian's {@code wrk}): its own process and
 * threads, none of the service's JIT, heap or scheduler shared, as issue 29 asks of the enqueue's figure. Each
 * request has no id, so the service makes one: every request is a new item.
 */
final class Wrk {

    /** What one run did: requests answered, all 2xx, and their rate. */
    record Run(long requests, double rate) {
    }

    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in");
    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");

    private Wrk() {
    }

    /** {@code connections} keep-alive connections on 2 wrk threads for {@code seconds}; fails on any non-2xx answer. */
    static Run postItems(int port, int connections, int seconds, Path work) throws IOException, InterruptedException {
        Path script = work.resolve("post-items.lua");
        Files.writeString(script, "wrk.method = \"POST\"\nwrk.body = \"" + "x".repeat(100) + "\"\n"
                + "wrk.headers[\"Content-Type\"] = \"application/octet-stream\"\n", StandardCharsets.UTF_8);
        Path out = work.resolve("wrk.out");
        Process wrk;
        try {
            wrk = new ProcessBuilder(List.of("wrk", "-t2", "-c" + connections, "-d" + seconds + "s", "-s",
                    script.toString(), "http://127.0.0.1:" + port + "/items"))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        } catch (IOException e) {
            throw new IOException("wrk is not installed (apt-get install -y wrk): " + e.getMessage(), e);
        }
        if (!wrk.waitFor(seconds + 60L, TimeUnit.SECONDS) || wrk.exitValue() != 0) {
            wrk.destroyForcibly();
            throw new IOException("wrk did not finish well:\n" + Files.readString(out));
        }
        String text = Files.readString(out);
        if (text.contains("Non-2xx") || text.contains("Socket errors")) {
            throw new AssertionError("POST /items under wrk: answers other than 201, or broken connections:\n" + text);
        }
        Matcher requests = REQUESTS.matcher(text);
        Matcher rate = RATE.matcher(text);
        if (!requests.find() || !rate.find()) {
            throw new IOException("wrk's output is not as expected:\n" + text);
        }
        return new Run(Long.parseLong(requests.group(1)), Double.parseDouble(rate.group(1)));
    }
}
