package io.leasehold.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    /**
     * Bare binds to port 0 answer the same port again within a few thousand tries on Linux (once in
     * about 4000 binds even twice in a row, which is how two services once shared one port in CI).
     */
    @Test
    void noPortIsHandedOutTwiceAndEachCanBeBound() throws IOException {
        Set<Integer> given = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            int port = FreePorts.take();
            assertTrue(given.add(port), "port " + port + " handed out twice, at take " + i);
        }
        int last = FreePorts.take();
        try (ServerSocket socket = new ServerSocket(last)) {
            assertTrue(socket.isBound(), "the port taken can be bound");
        }
    }

    /**
     * A port in the ephemeral range can become the local end of any outgoing connection between the take
     * and the server's bind (CI once saw a service die on "port in use" that way).
     */
    @Test
    void portsComeFromBelowTheKernelsEphemeralRange() {
        int low = FreePorts.ephemeralLow();
        for (int i = 0; i < 200; i++) {
            int port = FreePorts.take();
            assertTrue(port >= 10_000 && port < low, "port " + port + " is outside 10000.." + (low - 1));
        }
    }

    /**
     * Another JVM holding 300 ports: 1000 takes here would meet about 13 of them by chance; none is
     * handed out while the other holds it.
     */
    @Test
    void aPortHeldByAnotherJvmIsNotHandedOut() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process other = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                FreePorts.class.getName(), "300").redirectErrorStream(true).start();
        try {
            Set<Integer> theirs = new HashSet<>();
            BufferedReader lines = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
            for (String line = lines.readLine(); !"held".equals(line); line = lines.readLine()) {
                assertTrue(line != null && line.matches("\\d+"), "the other JVM printed: " + line);
                theirs.add(Integer.parseInt(line));
            }
            assertEquals(300, theirs.size(), "the other JVM's ports");
            for (int i = 0; i < 1000; i++) {
                int port = FreePorts.take();
                assertTrue(!theirs.contains(port), "port " + port + " is held by the other JVM, handed out at take " + i);
            }
        } finally {
            other.getOutputStream().close();
            assertTrue(other.waitFor(20, TimeUnit.SECONDS), "the other JVM ends with its input");
        }
    }
}
