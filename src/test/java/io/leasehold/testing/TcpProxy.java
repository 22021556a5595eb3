package io.leasehold.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy inside the test, on a free loopback port, between one process and a server (e.g. a
 * {@link NatsServer}), so a test can take that process's network away while everyone else keeps theirs:
 * <ul>
 * <li>{@link #blackhole()}: nothing is forwarded either way any more, yet every connection stays open
 * (no FIN, no RST), as when packets are dropped; new connections are accepted and held the same way.</li>
 * <li>{@link #cut()}: every connection is closed abruptly (RST to both sides); new ones are reset as soon
 * as they are accepted, as with a peer that is gone.</li>
 * <li>{@link #resume()}: connections pass again; what a blackhole held is delivered then, as TCP
 * delivers it late after a partition heals.</li>
 * </ul>
 * The same for one connection through {@link #links()}. Close it to cut everything and stop listening.
 */
public final class TcpProxy implements AutoCloseable {

    private enum ForNew { PASS, HOLD, RESET }

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private volatile ForNew forNew = ForNew.PASS;
    private volatile int accepted;

    private TcpProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** A proxy to {@code 127.0.0.1:port}, passing everything until told otherwise. */
    public static TcpProxy to(int port) {
        try {
            TcpProxy proxy = new TcpProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            daemon("tcp-proxy-accept-" + proxy.port(), proxy::acceptLoop);
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** {@code nats://127.0.0.1:<port>}: where a process goes through this proxy to a NATS server. */
    public String natsUrl() {
        return "nats://127.0.0.1:" + port();
    }

    /** The connections still open, oldest first. */
    public List<Link> links() {
        return links.stream().filter(Link::open).toList();
    }

    /** How many connections were accepted so far, also those reset at once. */
    public int accepted() {
        return accepted;
    }

    /** Stops forwarding on every connection, and holds new ones too; nothing is closed. */
    public void blackhole() {
        forNew = ForNew.HOLD;
        links.forEach(Link::blackhole);
    }

    /** Resets every connection; new ones are reset as soon as accepted, until {@link #resume()}. */
    public void cut() {
        forNew = ForNew.RESET;
        links.forEach(Link::cut);
    }

    /** Every open connection passes again, and new ones pass. */
    public void resume() {
        forNew = ForNew.PASS;
        links.forEach(Link::resume);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing a listening socket on the way out: nothing to do about it
        }
        links.forEach(Link::cut);
    }

    @Override
    public String toString() {
        return "proxy :" + port() + " -> " + target.getPort() + " (" + forNew + ")";
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted++;
            ForNew now = forNew;
            if (now == ForNew.RESET) {
                reset(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 2000);
            } catch (IOException e) {
                reset(client); // the server is down: the client sees what it would see without the proxy
                reset(upstream);
                continue;
            }
            Link link = new Link(client, upstream, now == ForNew.HOLD);
            links.add(link);
            link.pump();
        }
    }

    /** Closes with SO_LINGER 0, so the peer gets an RST rather than an orderly FIN. */
    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed
        }
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    /** One proxied connection: a client socket and its own upstream socket, pumped both ways. */
    public static final class Link {

        private final Socket client;
        private final Socket upstream;
        private final Object turn = new Object();
        private boolean held;
        private boolean closed;
        private int halfClosed;

        private Link(Socket client, Socket upstream, boolean held) {
            this.client = client;
            this.upstream = upstream;
            this.held = held;
        }

        /** The client side's port, to tell links apart. */
        public int clientPort() {
            return client.getPort();
        }

        public boolean open() {
            synchronized (turn) {
                return !closed;
            }
        }

        public void blackhole() {
            synchronized (turn) {
                held = true;
            }
        }

        public void resume() {
            synchronized (turn) {
                held = false;
                turn.notifyAll();
            }
        }

        /** RST to both sides. */
        public void cut() {
            synchronized (turn) {
                closed = true;
                turn.notifyAll();
            }
            reset(client);
            reset(upstream);
        }

        private void pump() {
            String name = "tcp-proxy-" + client.getLocalPort() + "-" + client.getPort();
            daemon(name + "-up", () -> copy(client, upstream));
            daemon(name + "-down", () -> copy(upstream, client));
        }

        /**
         * Reads a chunk, then waits while the link is held before writing it: a held link keeps at most
         * one chunk per direction, the rest stays in the kernel's buffers, and the writer feels the
         * back-pressure a dropped network gives. An end of input is passed on (FIN) only when not held.
         */
        private void copy(Socket from, Socket to) {
            byte[] chunk = new byte[16384];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                for (int n = in.read(chunk); ; n = in.read(chunk)) {
                    if (!awaitPassing()) {
                        return;
                    }
                    if (n < 0) {
                        to.shutdownOutput();
                        endOneWay();
                        return;
                    }
                    out.write(chunk, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                if (open()) {
                    cut(); // a reset on one side is passed on as a reset to the other
                }
            }
        }

        private boolean awaitPassing() {
            synchronized (turn) {
                while (held && !closed) {
                    try {
                        turn.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }
                return !closed;
            }
        }

        private void endOneWay() throws IOException {
            synchronized (turn) {
                if (++halfClosed < 2) {
                    return;
                }
                closed = true;
            }
            client.close();
            upstream.close();
        }
    }
}
