package io.leasehold.api;

import io.leasehold.testing.HttpReceiver;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Starts a real HTTP receiver before the app, points the http handler at it, and gives it to the test. */
public class ReceiverResource implements QuarkusTestResourceLifecycleManager {

    private HttpReceiver receiver;

    @Override
    public Map<String, String> start() {
        try {
            receiver = HttpReceiver.start();
        } catch (Exception e) {
            throw new IllegalStateException("could not start the test receiver", e);
        }
        return Map.of("leasehold.handler.http.url", receiver.url("/events"));
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(receiver, new TestInjector.MatchesType(HttpReceiver.class));
    }

    @Override
    public void stop() {
        try {
            receiver.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the test receiver", e);
        }
    }
}
