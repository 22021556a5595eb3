package io.leasehold.drain;

import io.leasehold.core.DurationText;
import io.leasehold.core.Clock;
import io.leasehold.core.HeldClaim;
import io.leasehold.core.Outcome;
import io.leasehold.handler.Handler;
import io.leasehold.handler.WorkItem;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One handler attempt racing the loss of its claim and its timeout: whichever comes first decides the
 * outcome, once, and stops the others (a lost claim cancels the handler at once). A plain subscriber
 * rather than a chain of Mutiny operators, because it runs once per item and for a small item such a
 * chain cost more than the item's own file operations. Whatever the handler does (throws, answers
 * null, fails) becomes an outcome.
 */
final class Attempt implements UniSubscriber<Outcome> {

    private final HeldClaim claim;
    private final Clock clock;
    private final DrainEvents events;
    private final Consumer<Outcome> decided;
    private final AtomicBoolean over = new AtomicBoolean();
    /** On the monotonic clock: a wall clock stepped mid-attempt must not make it last minus an hour. */
    private final long startedNanos;
    private volatile UniSubscription subscription;
    private volatile Clock.Timer timer;

    private Attempt(HeldClaim claim, Clock clock, DrainEvents events, Consumer<Outcome> decided) {
        this.claim = claim;
        this.clock = clock;
        this.events = events;
        this.decided = decided;
        this.startedNanos = clock.monotonicNanos();
    }

    /**
     * Starts the handler on the calling thread; {@code decided} gets the outcome once, on whichever
     * thread decided it (the caller's own when the handler answers at once).
     */
    static Attempt start(Handler handler, WorkItem item, HeldClaim claim, Clock clock, Duration timeout,
            DrainEvents events, Consumer<Outcome> decided) {
        Attempt attempt = made(claim, clock, events, decided);
        attempt.run(handler, item, timeout);
        return attempt;
    }

    /** An attempt not started yet: published first, so a stop that comes before {@link #run} ends it unstarted. */
    static Attempt made(HeldClaim claim, Clock clock, DrainEvents events, Consumer<Outcome> decided) {
        return new Attempt(claim, clock, events, decided);
    }

    /** Starts the handler on the calling thread, unless the attempt was cancelled (or the claim lost) before. */
    void run(Handler handler, WorkItem item, Duration timeout) {
        claim.onLost(() -> decide(Outcome.lost()));
        if (over.get()) {
            return; // cancelled or lost already: the handler is never called
        }
        if (!timeout.isZero()) {
            timer = clock.timer("leasehold-attempt-timeout", timeout,
                    () -> decide(Outcome.retry("timed out after " + DurationText.of(timeout))));
        }
        Uni<Outcome> work;
        try {
            work = handler.handle(item);
        } catch (Throwable e) { // an Error too: the attempt's outcome, never an escape
            decide(Outcome.retry("handler failed: " + e));
            return;
        }
        if (work == null) {
            decide(Outcome.retry("handler failed: it answered no Uni"));
            return;
        }
        if (!over.get()) {
            work.subscribe().withSubscriber(this);
        }
    }

    /**
     * Stops the attempt and drops its outcome (the claim is handed back); false when it had already been
     * decided (answered, timed out, lost), which then stands.
     */
    boolean cancel() {
        if (over.compareAndSet(false, true)) {
            stopTheRest();
            return true;
        }
        return false;
    }

    @Override
    public void onSubscribe(UniSubscription subscription) {
        this.subscription = subscription;
        if (over.get()) {
            subscription.cancel(); // lost or timed out before the handler had even subscribed
        }
    }

    @Override
    public void onItem(Outcome outcome) {
        decide(outcome == null ? Outcome.retry("the handler answered nothing") : outcome);
    }

    @Override
    public void onFailure(Throwable failure) {
        decide(Outcome.retry("handler failed: " + failure));
    }

    private void decide(Outcome outcome) {
        if (!over.compareAndSet(false, true)) {
            return;
        }
        stopTheRest();
        // Decided on whichever thread answered (a timer, an event loop, the renewal): its lines name the item.
        try (ItemLogContext context = ItemLogContext.unlessIn(claim)) {
            events.attempted(claim.id(), outcome.label(), Duration.ofNanos(clock.monotonicNanos() - startedNanos));
            decided.accept(outcome);
        }
    }

    private void stopTheRest() {
        Clock.Timer t = timer;
        if (t != null) {
            t.close();
        }
        UniSubscription s = subscription;
        if (s != null) {
            s.cancel(); // after an item this does nothing; after a loss or a timeout it stops the handler
        }
    }
}
