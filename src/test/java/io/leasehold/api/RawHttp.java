package io.leasehold.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A request written byte by byte, for what a high-level client would not promise: a body streamed
 * with Transfer-Encoding: chunked and no Content-Length at all.
 */
final class RawHttp {

    record Answer(int status, String headers, String body) {
    }

    private RawHttp() {
    }

    static Answer postChunked(URL base, String pathAndQuery, byte[] body, int chunkSize) throws IOException {
        return postChunked(base, pathAndQuery, body, chunkSize, "application/octet-stream");
    }

    static Answer postChunked(URL base, String pathAndQuery, byte[] body, int chunkSize, String type)
            throws IOException {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + pathAndQuery + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                    + "\r\nContent-Type: " + type + "\r\nTransfer-Encoding: chunked\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            for (int from = 0; from < body.length; from += chunkSize) {
                int n = Math.min(chunkSize, body.length - from);
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, from, n);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return read(socket.getInputStream());
        }
    }

    static Answer read(InputStream in) throws IOException {
        String all = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        int split = all.indexOf("\r\n\r\n");
        String head = all.substring(0, split);
        String rest = all.substring(split + 4);
        int status = Integer.parseInt(head.split(" ", 3)[1]);
        String body = head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked") ? dechunk(rest) : rest;
        return new Answer(status, head, new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    private static String dechunk(String chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (true) {
            int lineEnd = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                return out.toString(StandardCharsets.ISO_8859_1);
            }
            out.writeBytes(chunked.substring(lineEnd + 2, lineEnd + 2 + size).getBytes(StandardCharsets.ISO_8859_1));
            at = lineEnd + 2 + size + 2;
        }
    }
}
