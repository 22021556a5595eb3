package io.leasehold.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    /**
     * Bare binds to port 0 answer the same port again within a few thousand tries on Linux (once in
     * about 4000 binds even twice in a row, which is how two services once shared one port in CI).
     */
    @Test
    void noPortIsHandedOutTwiceAndEachCanBeBound() throws IOException {
        Set<Integer> given = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            int port = FreePorts.take();
            assertTrue(given.add(port), "port " + port + " handed out twice, at take " + i);
        }
        int last = FreePorts.take();
        try (ServerSocket socket = new ServerSocket(last)) {
            assertTrue(socket.isBound(), "the port taken can be bound");
        }
    }
}
