package io.leasehold.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A class-data-sharing archive of the packaged jar (JDK 17's dynamic AppCDS), made once per build of the
 * jar by one start of the service, so that each of the suite's many starts of that jar maps its classes
 * instead of loading and verifying them from the jar again (about a second less per service start on two
 * cores). Nothing else changes: the same jar, the same settings. Named after the jar's size and time, so
 * an archive of an older jar (which the JVM would refuse, saying so) is never used.
 */
final class ClassDataArchive {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private ClassDataArchive() {
    }

    /** The archive of {@code jar} in directory {@code dir}, made if need be; null if it cannot be made. */
    static Path prepare(PackagedArtifact jar, Path dir) {
        try {
            Path file = jar.file();
            String stamp = Files.size(file) + "-" + Files.getLastModifiedTime(file).toMillis();
            Path archive = dir.toAbsolutePath().resolve("quarkus-run-" + stamp + ".jsa");
            if (Files.isRegularFile(archive) && Files.size(archive) > 0) {
                return archive;
            }
            Files.createDirectories(dir);
            Path made = dir.toAbsolutePath().resolve("making-" + ProcessHandle.current().pid() + ".jsa");
            Files.deleteIfExists(made);
            if (!dump(jar, dir.toAbsolutePath(), made) || !Files.isRegularFile(made) || Files.size(made) == 0) {
                System.err.println("ClassDataArchive: no archive of " + file + " could be made; starts load from the jar");
                return null;
            }
            Files.move(made, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return archive;
        } catch (IOException e) {
            System.err.println("ClassDataArchive: " + e + "; starts load from the jar");
            return null;
        }
    }

    /** Starts the service with the archive to be written at its exit, asks it a few things, stops it with SIGTERM. */
    private static boolean dump(PackagedArtifact jar, Path dir, Path made) throws IOException {
        int port = FreePorts.take();
        Path spool = Files.createDirectories(dir.resolve("spool-" + ProcessHandle.current().pid()));
        List<String> command = new ArrayList<>(jar.command(List.of("-Xmx160m", "-XX:+UseSerialGC",
                "-XX:ArchiveClassesAtExit=" + made),
                Map.of("leasehold.spool.dir", spool.toString(), "quarkus.http.port", Integer.toString(port)), List.of()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("making.log").toFile()).start();
        try {
            String base = "http://127.0.0.1:" + port;
            try {
                Await.until("the archive's maker ready", Duration.ofSeconds(90),
                        () -> !p.isAlive() || status(base + "/q/health/ready", null) == 200);
            } catch (AssertionError notReady) {
                return false;
            }
            if (!p.isAlive()) {
                return false;
            }
            // The classes of the usual requests too: an enqueue, a look, the counts, the metrics.
            status(base + "/items?id=cds-1", "payload");
            for (String path : List.of("/items/cds-1", "/items?state=pending", "/spool", "/lease", "/q/metrics",
                    "/q/health/live")) {
                status(base + path, null);
            }
            p.destroy();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            p.destroyForcibly();
        }
    }

    private static int status(String url, String post) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (post != null) {
            request.header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofString(post));
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
