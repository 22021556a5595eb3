package io.leasehold.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Many plain sockets talking HTTP/1.1 to one service, for tests that hold connections open on purpose. */
final class RawClients {

    private RawClients() {
    }

    /** The request line and headers of {@code POST path}, with the Content-Length of the body to come. */
    static byte[] postHead(String path, long contentLength) {
        return ("POST " + path + " HTTP/1.1\r\nHost: leasehold\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: " + contentLength + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Opens {@code count} uploads to the service on {@code port}, each sending its head and the first
     * 1 KiB of a 64 KiB body, then nothing more: uploads that stall mid-body. Close them when done.
     */
    static List<Socket> stall(int port, int count, String idPrefix) throws IOException {
        List<Socket> stalled = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Socket s = new Socket("127.0.0.1", port);
            s.setSoTimeout(30_000);
            stalled.add(s);
            OutputStream out = s.getOutputStream();
            out.write(postHead("/items?id=" + idPrefix + i, 65536));
            out.write(new byte[1024]); // the start of the body, then nothing more
            out.flush();
        }
        return stalled;
    }

    /** The status line of the answer, or "" when the connection was closed or reset without one. */
    static String statusLine(InputStream in) {
        try {
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0 && c != '\n') {
                line.append((char) c);
            }
            return line.toString().trim();
        } catch (IOException e) {
            return "";
        }
    }

    static void closeAll(List<Socket> sockets) {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
