package io.leasehold.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** {@link TcpProxy} in front of an echo server on loopback: pass, blackhole, cut, resume, per link. */
@Execution(ExecutionMode.CONCURRENT) // beside the one-at-a-time tests: see the surefire settings in pom.xml
class TcpProxyTest {

    /** How long "nothing arrives" is watched for: a forwarded byte on loopback takes microseconds. */
    private static final int QUIET_MILLIS = 300;

    private final EchoServer echo = new EchoServer();
    private final TcpProxy proxy = TcpProxy.to(echo.port());
    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void close() throws IOException {
        proxy.close();
        for (Socket s : clients) {
            s.close();
        }
        echo.close();
    }

    @Test
    void passesBytesBothWaysAndAnEndOfInput() throws IOException {
        Socket s = connect();
        assertEquals("hello", roundTrip(s, "hello"));
        s.shutdownOutput();
        assertEquals(-1, s.getInputStream().read(), "the server's FIN came back through the proxy");
    }

    @Test
    void aBlackholeForwardsNothingAndClosesNothingUntilResumed() throws IOException {
        Socket before = connect();
        assertEquals("a", roundTrip(before, "a"));
        proxy.blackhole();
        send(before, "b");
        assertQuiet(before);
        Socket during = connect(); // accepted, and held like the others
        send(during, "c");
        assertQuiet(during);

        proxy.resume();
        assertEquals("b", read(before, 1), "held bytes are delivered late, the connection never closed");
        assertEquals("c", read(during, 1));
        assertEquals("d", roundTrip(before, "d"));
    }

    @Test
    void aCutResetsEveryConnectionAndNewOnesUntilResumed() throws IOException {
        Socket before = connect();
        assertEquals("a", roundTrip(before, "a"));
        proxy.cut();
        assertThrows(SocketException.class, () -> before.getInputStream().read(), "an RST, not a FIN");
        Socket during = connect();
        assertThrows(SocketException.class, () -> during.getInputStream().read(), "reset as soon as accepted");
        assertEquals(0, proxy.links().size());

        proxy.resume();
        assertEquals("e", roundTrip(connect(), "e"));
    }

    @Test
    void oneLinkCanBeHeldOrCutWhileAnotherPasses() throws IOException {
        Socket held = connect();
        Socket other = connect();
        assertEquals("1", roundTrip(held, "1"));
        assertEquals("2", roundTrip(other, "2"));
        TcpProxy.Link link = proxy.links().stream().filter(l -> l.clientPort() == held.getLocalPort())
                .findFirst().orElseThrow();

        link.blackhole();
        send(held, "3");
        assertQuiet(held);
        assertEquals("4", roundTrip(other, "4"));
        link.resume();
        assertEquals("3", read(held, 1));

        link.cut();
        assertThrows(SocketException.class, () -> held.getInputStream().read());
        assertEquals("5", roundTrip(other, "5"));
        assertEquals(1, proxy.links().size());
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(5000);
        clients.add(s);
        return s;
    }

    private static String roundTrip(Socket s, String text) throws IOException {
        send(s, text);
        return read(s, text.length());
    }

    private static void send(Socket s, String text) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String read(Socket s, int n) throws IOException {
        byte[] got = s.getInputStream().readNBytes(n);
        return new String(got, StandardCharsets.US_ASCII);
    }

    /** Nothing arrives, and the connection is neither ended (FIN) nor reset (RST): the read times out. */
    private static void assertQuiet(Socket s) throws IOException {
        s.setSoTimeout(QUIET_MILLIS);
        try {
            int got = s.getInputStream().read();
            throw new AssertionError(got < 0 ? "the connection was ended" : "a byte passed: " + (char) got);
        } catch (SocketTimeoutException expected) {
            assertTrue(s.isConnected() && !s.isClosed());
        } finally {
            s.setSoTimeout(5000);
        }
    }

    /** Echoes every byte on every connection; a closed input closes the connection. */
    private static final class EchoServer implements AutoCloseable {
        private final ServerSocket server;

        EchoServer() {
            try {
                server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Thread t = new Thread(this::accept, "echo-accept");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void accept() {
            while (true) {
                Socket s;
                try {
                    s = server.accept();
                } catch (IOException e) {
                    return;
                }
                Thread t = new Thread(() -> echo(s), "echo");
                t.setDaemon(true);
                t.start();
            }
        }

        private static void echo(Socket s) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                byte[] buf = new byte[1024];
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the peer reset: this connection is over
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
