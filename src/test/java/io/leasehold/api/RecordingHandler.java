package io.leasehold.api;

import io.leasehold.core.HandlerOutput;
import io.leasehold.core.Outcome;
import io.leasehold.handler.Handler;
import io.leasehold.handler.WorkItem;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A user's own handler, chosen with leasehold.handler=test-recording. It keeps every item it is
 * given; the payload says how the attempt goes: "fail" fails it, "retry-once" asks for one retry (and reports
 * each attempt's output).
 */
@Named("test-recording")
@Singleton
public class RecordingHandler implements Handler {

    static final String FAIL_REASON = "refused by the recording handler";

    private final List<WorkItem> seen = new CopyOnWriteArrayList<>();

    @Override
    public Uni<Outcome> handle(WorkItem item) {
        seen.add(item);
        String text = new String(item.payload(), StandardCharsets.UTF_8);
        if (text.equals("fail")) {
            return Uni.createFrom().item(Outcome.failed(FAIL_REASON));
        }
        if (text.equals("retry-once")) {
            // What a bean of a user's shows of its attempt: kept, and read on the item page.
            item.report(new HandlerOutput(item.attempt(), List.of(new HandlerOutput.Part("log",
                    "attempt " + item.attempt() + " of " + item.id() + "\n<b>not html</b>", 0, "tail"))));
        }
        if (text.equals("retry-once") && item.attempt() == 1) {
            return Uni.createFrom().item(Outcome.retry("asked for one retry"));
        }
        return Uni.createFrom().item(Outcome.done());
    }

    List<WorkItem> seen(String id) {
        return seen.stream().filter(i -> i.id().equals(id)).toList();
    }
}
