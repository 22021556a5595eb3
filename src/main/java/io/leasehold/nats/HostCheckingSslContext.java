package io.leasehold.nats;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * A TLS context whose client sockets check that the server's certificate names the host connected
 * to, as a browser does (endpoint identification "HTTPS": subject alternative names, DNS or IP).
 * jnats opens its TLS socket without asking for that check, so without this any certificate signed by
 * a trusted CA — with the JVM's default trust, any public CA's — would be taken for any NATS server.
 */
final class HostCheckingSslContext extends SSLContext {

    HostCheckingSslContext(SSLContext delegate) {
        super(new Spi(delegate), delegate.getProvider(), delegate.getProtocol());
    }

    private static <T extends Socket> T checked(T socket) {
        if (socket instanceof SSLSocket ssl) {
            SSLParameters p = ssl.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            ssl.setSSLParameters(p);
        }
        return socket;
    }

    private static SSLEngine checked(SSLEngine engine) {
        SSLParameters p = engine.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(p);
        return engine;
    }

    private static final class Spi extends SSLContextSpi {
        private final SSLContext delegate;

        Spi(SSLContext delegate) {
            this.delegate = delegate;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) throws KeyManagementException {
            delegate.init(km, tm, sr);
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return new Factory(delegate.getSocketFactory());
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return delegate.getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return checked(delegate.createSSLEngine());
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return checked(delegate.createSSLEngine(host, port));
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return delegate.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return delegate.getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return delegate.getDefaultSSLParameters();
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return delegate.getSupportedSSLParameters();
        }
    }

    private static final class Factory extends SSLSocketFactory {
        private final SSLSocketFactory delegate;

        Factory(SSLSocketFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return delegate.getDefaultCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return delegate.getSupportedCipherSuites();
        }

        @Override
        public Socket createSocket() throws IOException {
            return checked(delegate.createSocket());
        }

        @Override
        public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
            return checked(delegate.createSocket(s, host, port, autoClose));
        }

        @Override
        public Socket createSocket(Socket s, InputStream consumed, boolean autoClose) throws IOException {
            return delegate.createSocket(s, consumed, autoClose); // a server-side socket: no host to check
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return checked(delegate.createSocket(host, port));
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            return checked(delegate.createSocket(host, port, localHost, localPort));
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return checked(delegate.createSocket(host, port));
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            return checked(delegate.createSocket(address, port, localAddress, localPort));
        }
    }
}
