package io.leasehold.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.drain.DrainEvents;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class MicrometerDrainEventsTest {

    /** An output lost to a full disk or an absent NATS is counted, also when the events go to two listeners. */
    @Test
    void anOutputNotKeptIsCountedThroughBothListeners() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerDrainEvents meters = new MicrometerDrainEvents(registry);
        assertEquals(0.0, registry.get("leasehold.outputs.not.kept").counter().count(), "registered at zero");
        DrainEvents.both(DrainEvents.NONE, meters).outputNotKept("a", 1, "No space left on device");
        DrainEvents.both(meters, DrainEvents.NONE).outputNotKept("a", 2, "NATS away");
        assertEquals(2.0, registry.get("leasehold.outputs.not.kept").counter().count());
    }
}
