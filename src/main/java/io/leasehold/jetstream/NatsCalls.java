package io.leasehold.jetstream;

import io.leasehold.spool.ItemStore;
import io.nats.client.JetStreamApiException;
import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * One JetStream call of the spool's, with the client's ways of saying "not now" turned into
 * {@link ItemStore.SpoolUnavailableException}: while it reconnects it throws {@code IllegalStateException}
 * ("unable to queue any more messages"), and a request that gets no answer in time an {@code IOException}.
 * The server's own refusals ({@link JetStreamApiException}) are left to the caller, which decides by their code.
 */
final class NatsCalls {

    @FunctionalInterface
    interface Call<T> {
        T call() throws Exception;
    }

    private NatsCalls() {
    }

    static <T> T guarded(String what, Call<T> call) throws IOException, JetStreamApiException {
        try {
            return call.call();
        } catch (IllegalStateException e) { // cancelled requests included
            throw new ItemStore.SpoolUnavailableException(what + ": NATS is not reachable now (" + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(what + ": interrupted");
        } catch (JetStreamApiException | ItemStore.SpoolUnavailableException | ItemStore.PayloadTooLargeException e) {
            throw e;
        } catch (IOException e) {
            throw new ItemStore.SpoolUnavailableException(what + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) { // the client's other checked exceptions (a missing digest algorithm): not ours to retry
            throw new IOException(what + ": " + e, e);
        }
    }
}
