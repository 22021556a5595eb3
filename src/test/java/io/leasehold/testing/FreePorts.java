package io.leasehold.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the servers a test starts (services, nats-server), which bind them a second or more later.
 * Two races are closed here:
 * <ul>
 * <li>A port inside the kernel's ephemeral range can be taken meanwhile as the local end of any outgoing
 * connection (a NATS client, an HTTP call): the service then dies on "address in use". So ports come from
 * below that range ({@code ip_local_port_range}), where the kernel never picks one by itself.</li>
 * <li>Two takers, in this JVM or another one on the machine, must not get the same port: each port is
 * handed out once per JVM and held by a file lock in the temp folder for the JVM's life.</li>
 * </ul>
 */
public final class FreePorts {

    private static final Set<Integer> GIVEN = new HashSet<>();
    private static final List<FileLock> HELD = new ArrayList<>();
    private static final Path LOCKS = Path.of(System.getProperty("java.io.tmpdir"), "leasehold-test-ports");
    private static final int LOWEST = 10_000;
    private static final int BELOW = ephemeralLow();

    private FreePorts() {
    }

    /** A port free on every address now, below the ephemeral range, and handed out to no one else. */
    public static synchronized int take() {
        for (int tries = 0; tries < 5000; tries++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, BELOW);
            if (!GIVEN.contains(port) && bindable(port) && lock(port)) {
                GIVEN.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no free port in " + LOWEST + ".." + (BELOW - 1) + " after 5000 tries");
    }

    /** The low end of the kernel's ephemeral range; 32768 where it cannot be read. */
    static int ephemeralLow() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            int low = Integer.parseInt(range.split("\\s+")[0]);
            return low > LOWEST + 1000 ? low : 32768;
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }

    /**
     * Takes the given number of ports, prints them one per line and then "held", and holds them until its
     * standard input ends: another JVM for the test of the lock between JVMs.
     */
    public static void main(String[] args) throws IOException {
        int count = Integer.parseInt(args[0]);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append(take()).append('\n');
        }
        System.out.print(out.append("held\n"));
        System.out.flush();
        System.in.transferTo(java.io.OutputStream.nullOutputStream());
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean lock(int port) {
        try {
            Files.createDirectories(LOCKS);
            FileChannel channel = FileChannel.open(LOCKS.resolve(port + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                return false;
            }
            HELD.add(lock);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock a port in " + LOCKS, e);
        }
    }
}
