package io.leasehold.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection, requests one at a time: the least a client can cost. The JDK's
 * HttpClient spends more CPU per request than the service's enqueue path on a 2-core machine, and a
 * benchmark that shares its cores with the client should measure the service, not the client.
 * It reads exactly what the service answers: a status line, headers, then a body by Content-Length
 * or chunked.
 */
final class PlainHttp implements AutoCloseable {

    /** A status and a body. */
    record Answer(int status, String body) {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String host;

    PlainHttp(int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(30_000);
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        out = socket.getOutputStream();
        host = "127.0.0.1:" + port;
    }

    Answer post(String pathAndQuery, String contentType, byte[] body) throws IOException {
        String head = "POST " + pathAndQuery + " HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: " + contentType
                + "\r\nContent-Length: " + body.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, request, 0, headBytes.length);
        System.arraycopy(body, 0, request, headBytes.length, body.length);
        out.write(request);
        out.flush();
        return read();
    }

    private Answer read() throws IOException {
        String status = line();
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP answer: " + status);
        }
        long length = -1;
        boolean chunked = false;
        for (String header = line(); !header.isEmpty(); header = line()) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring("content-length:".length()).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            for (long size = Long.parseLong(line().split(";")[0].trim(), 16); size > 0;
                    size = Long.parseLong(line().split(";")[0].trim(), 16)) {
                copy(size, body);
                line();
            }
            line();
        } else if (length > 0) {
            copy(length, body);
        } else if (length < 0) {
            throw new IOException("an answer without a length on a keep-alive connection: " + status);
        }
        return new Answer(Integer.parseInt(parts[1]), body.toString(StandardCharsets.UTF_8));
    }

    private void copy(long n, ByteArrayOutputStream to) throws IOException {
        byte[] buffer = new byte[(int) Math.min(n, 8192)];
        for (long left = n; left > 0; ) {
            int got = in.read(buffer, 0, (int) Math.min(left, buffer.length));
            if (got < 0) {
                throw new IOException("the connection closed in a body");
            }
            to.write(buffer, 0, got);
            left -= got;
        }
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the connection closed in an answer");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
