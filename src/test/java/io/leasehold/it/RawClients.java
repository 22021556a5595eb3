package io.leasehold.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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
