package io.leasehold.testing;

import io.nats.client.NKey;
import io.nats.client.support.JsonSerializable;
import io.nats.client.support.JwtUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;

/**
 * NATS decentralised auth made at test time, as {@code nsc} would: an operator, one account with
 * JetStream that it signs, and users that account signs, each written as a {@code .creds} file (JWT +
 * NKey seed). {@link #serverConfig()} is the nats-server text that trusts the operator and preloads
 * the account (memory resolver), so no tool and no account server is needed.
 */
public final class NatsOperator {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final NKey operator;
    private final NKey account;
    private final NKey system;
    private final String operatorJwt;
    private final String accountJwt;
    private final String systemJwt;

    private NatsOperator() throws IOException, GeneralSecurityException {
        operator = NKey.createOperator(RANDOM);
        account = NKey.createAccount(RANDOM);
        system = NKey.createAccount(RANDOM);
        String operatorPub = new String(operator.getPublicKey());
        operatorJwt = JwtUtils.issueJWT(operator, operatorPub, "leasehold-test-operator", null, now(), operatorPub,
                json("{\"type\":\"operator\",\"version\":2}"));
        // -1: no limit. JetStream is on for an account whose JWT gives it storage.
        accountJwt = JwtUtils.issueJWT(operator, new String(account.getPublicKey()), "APP", null, now(), operatorPub,
                json("{\"limits\":{\"subs\":-1,\"data\":-1,\"payload\":-1,\"imports\":-1,\"exports\":-1,"
                        + "\"wildcards\":true,\"conn\":-1,\"leaf\":-1,\"mem_storage\":-1,\"disk_storage\":-1,"
                        + "\"streams\":-1,\"consumer\":-1},\"type\":\"account\",\"version\":2}"));
        // JetStream in operator mode will not start without a system account.
        systemJwt = JwtUtils.issueJWT(operator, new String(system.getPublicKey()), "SYS", null, now(), operatorPub,
                json("{\"type\":\"account\",\"version\":2}"));
    }

    public static NatsOperator create() {
        try {
            return new NatsOperator();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make NKeys or JWTs", e);
        }
    }

    /** Server config text: operator mode, the accounts preloaded into a memory resolver. */
    public String serverConfig() {
        try {
            String sys = new String(system.getPublicKey());
            return "operator: \"" + operatorJwt + "\"\nsystem_account: " + sys + "\nresolver: MEMORY\n"
                    + "resolver_preload: {\n  " + new String(account.getPublicKey()) + ": \"" + accountJwt + "\"\n  "
                    + sys + ": \"" + systemJwt + "\"\n}\n";
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A user of the account, written as a .creds file at {@code to}; answers {@code to}. */
    public Path userCreds(Path to) {
        return creds(to, account);
    }

    /**
     * A user signed by an account this server does not know, in a well-formed .creds file: what a
     * credentials file for another NATS deployment looks like.
     */
    public static Path strangerCreds(Path to) {
        try {
            return creds(to, NKey.createAccount(RANDOM));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path creds(Path to, NKey signer) {
        try {
            NKey user = NKey.createUser(RANDOM);
            String jwt = JwtUtils.issueUserJWT(signer, new String(signer.getPublicKey()),
                    new String(user.getPublicKey()));
            return Files.writeString(to, String.format(JwtUtils.NATS_USER_JWT_FORMAT, jwt, new String(user.getSeed())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a user JWT", e);
        }
    }

    private static long now() {
        return JwtUtils.currentTimeSeconds();
    }

    private static JsonSerializable json(String text) {
        return () -> text;
    }
}
