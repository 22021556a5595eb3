package io.leasehold.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every event has a default that does nothing, so a relay that forgets one compiles and drops it silently
 * (an output not kept once never reached its metric that way). Each relay is called with every event.
 */
class EventsPassedOnTest {

    private static final Map<Class<?>, Object> ARGS = Map.of(String.class, "x", int.class, 1, Duration.class,
            Duration.ZERO, AttemptEnd.class, AttemptEnd.DONE);

    private static List<Method> events() {
        return Arrays.stream(DrainEvents.class.getMethods()).filter(m -> !Modifier.isStatic(m.getModifiers())).toList();
    }

    private static DrainEvents recorder(List<String> calls) {
        return (DrainEvents) Proxy.newProxyInstance(DrainEvents.class.getClassLoader(), new Class<?>[] {DrainEvents.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.getName().equals("equals") ? proxy == args[0] : System.identityHashCode(proxy);
                    }
                    calls.add(method.getName());
                    return null;
                });
    }

    private static void callEach(DrainEvents relay) throws Exception {
        for (Method event : events()) {
            Object[] args = Arrays.stream(event.getParameterTypes()).map(ARGS::get).toArray();
            event.invoke(relay, args);
        }
    }

    @Test
    void theTallyPassesEveryEventOn() throws Exception {
        List<String> calls = new ArrayList<>();
        callEach(new DrainTally(recorder(calls)));
        assertEquals(events().stream().map(Method::getName).toList(), calls);
    }

    @Test
    void bothTellsEveryEventToEachInTurn() throws Exception {
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        callEach(DrainEvents.both(recorder(first), recorder(second)));
        List<String> expected = events().stream().map(Method::getName).toList();
        assertEquals(expected, first);
        assertEquals(expected, second);
    }
}
