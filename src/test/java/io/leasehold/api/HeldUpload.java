package io.leasehold.api;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/**
 * A POST whose body the test holds open: the headers and the first part of the body are sent at
 * once, the rest only when the test says so, so the server is mid-upload for as long as the test
 * needs. Close it in a finally block.
 */
final class HeldUpload implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final byte[] body;
    private final int sent;

    private HeldUpload(Socket socket, byte[] body, int sent) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.body = body;
        this.sent = sent;
    }

    /** Starts {@code POST pathAndQuery} with a Content-Length of the whole body and sends {@code first} bytes. */
    static HeldUpload start(URL base, String pathAndQuery, byte[] body, int first) throws IOException {
        Socket socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(20_000);
        HeldUpload upload = new HeldUpload(socket, body, first);
        upload.out.write(("POST " + pathAndQuery + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\nContent-Type: application/octet-stream\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        upload.out.write(body, 0, first);
        upload.out.flush();
        return upload;
    }

    /** Sends the rest of the body and reads the answer: status line and body. */
    RawHttp.Answer finish() throws IOException {
        out.write(body, sent, body.length - sent);
        out.flush();
        return RawHttp.read(socket.getInputStream());
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    static byte[] bytes(int n, char fill) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) fill);
        return b;
    }
}
