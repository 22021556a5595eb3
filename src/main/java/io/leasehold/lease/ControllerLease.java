package io.leasehold.lease;

import io.leasehold.core.Blocking;
import io.leasehold.core.Clock;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * This process's side of the controller lease, as an explicit state machine driven by ticks every
 * {@code renew-every}:
 *
 * <pre>
 *   waiting ──take (create, or update at a revision seen unchanged for a full duration)──▶ held
 *   waiting ──the store refuses this user and nobody holds it─────────────────────────▶ unleased
 *   unleased ──take succeeds──▶ held          unleased ──another holder seen──▶ lost
 *   held ──renewal refused, or none succeeded within renew-deadline───────────────────▶ lost
 * </pre>
 *
 * <p>Uncertainty counts as loss: a call that does not answer in time is never a success, and the
 * holder's deadline is counted on its own monotonic clock from the moment its last successful
 * renewal was <em>sent</em>. What it does not guarantee: an act already under way when the lease is
 * lost is not undone; receivers that compare epochs are what make a stale holder harmless.
 */
public final class ControllerLease implements LeaseGate {

    private static final Logger LOG = Logger.getLogger(ControllerLease.class);
    private static final Duration RELEASE_LIMIT = Duration.ofSeconds(2);

    enum Mode { WAITING, HELD, UNLEASED, LOST, RELEASED }

    private final LeaseStore store;
    private final EpochFloor floor;
    private final Clock clock;
    private final LeaseTiming timing;
    private final Holder me;
    private final Executor workers;
    private final BoundedCalls calls;
    private final Consumer<Standing> onLost;
    private final AtomicBoolean lostOnce = new AtomicBoolean();

    private volatile Mode mode = Mode.WAITING;
    private volatile Standing standing;
    private volatile long heldEpoch;
    private volatile long lastRenewalSentNanos;
    /** Set by a waiting step: how long until the lease seen unchanged may be taken (0: nothing due). */
    private volatile long takeDueInNanos;
    // Touched only by step(), which the clock never runs twice at once.
    private long heldRevision;
    private Instant takenAt;
    private long seenRevision = -1;
    private LeaseRecord seenRecord;
    private static final long NOT_RESET = Long.MIN_VALUE;
    /** When this process found the store behind the epoch floor: whoever held it then may still act. */
    private long resetSeenSinceNanos = NOT_RESET;
    private long seenSinceNanos;

    public ControllerLease(LeaseStore store, EpochFloor floor, Clock clock, LeaseTiming timing, Holder me,
            Executor workers, Consumer<Standing> onLost) {
        this.store = store;
        this.floor = floor;
        this.clock = clock;
        this.timing = timing;
        this.me = me;
        this.workers = workers;
        this.calls = new BoundedCalls(workers);
        this.onLost = onLost;
        this.standing = new Standing("waiting", 0, null, null, "the lease has not been tried yet", null);
    }

    public Standing standing() {
        return standing;
    }

    /** One step of the state machine: what the renew-every tick runs. */
    public Uni<Void> tick() {
        return Blocking.run(workers, this::step).chain(this::takeWhenDue);
    }

    /**
     * A lease that comes due between two ticks is looked at again when it does: the next tick could
     * come a hair early (the ticks and the reads are not exact) and the take slip a whole period, past
     * the duration + renew-every a failover may take.
     */
    private Uni<Void> takeWhenDue() {
        long due = takeDueInNanos;
        if (due <= 0 || due >= timing.renewEvery().toNanos()) {
            return Uni.createFrom().voidItem();
        }
        if (due < BoundedCalls.SHORTEST.toNanos()) {
            return Blocking.run(workers, this::step); // a timer cannot be shorter than a millisecond
        }
        return clock.after(Duration.ofNanos(due)).chain(() -> Blocking.run(workers, this::step));
    }

    void step() {
        takeDueInNanos = 0;
        switch (mode) {
            case HELD -> renew();
            case WAITING, UNLEASED -> tryTake();
            default -> {
            }
        }
    }

    @Override
    public long epochForAct() throws ActRefused {
        switch (mode) {
            case HELD:
                if (clock.monotonicNanos() - lastRenewalSentNanos >= timing.renewDeadline().toNanos()) {
                    lose("no renewal succeeded within leasehold.lease.renew-deadline (" + timing.renewDeadline() + ")");
                    throw new ActRefused(standing.reason());
                }
                return heldEpoch;
            case UNLEASED:
                return 0;
            case LOST:
                throw new ActRefused("the controller lease was lost: " + standing.reason());
            case RELEASED:
                throw new ActRefused("the controller lease was given back at shutdown");
            default:
                Standing now = standing;
                if (now.holder() != null && now.epoch() > 0) {
                    return now.epoch(); // acting beside the holder, under its epoch as last read
                }
                throw new ActRefused("nobody holds the controller lease yet: " + now.reason());
        }
    }

    /** Whether an act would pass the gate now (without the side effects of asking). */
    public boolean canAct() {
        Mode current = mode;
        return current == Mode.HELD || current == Mode.UNLEASED
                || (current == Mode.WAITING && standing.holder() != null && standing.epoch() > 0);
    }

    /** Whether this instance is the one the lease names (or serves unleased): who drains in leader mode. */
    public boolean leads() {
        Mode current = mode;
        return current == Mode.HELD || current == Mode.UNLEASED;
    }

    private void tryTake() {
        Optional<LeaseStore.Versioned> seen;
        try {
            seen = calls.call(store::read, candidateBound());
        } catch (LeaseStoreException e) {
            waitingOrUnleased(e, "who holds the lease cannot be read");
            return;
        }
        if (seen.isEmpty()) {
            if (resetSeenSinceNanos != NOT_RESET
                    && clock.monotonicNanos() - resetSeenSinceNanos < timing.duration().toNanos()) {
                standing = standing.with("waiting", 0, null, null, "the lease store was reset: waiting a full "
                        + timing.duration() + " before taking, as an earlier holder may still be acting");
                return;
            }
            take(null);
            return;
        }
        LeaseStore.Versioned current = seen.get();
        if (current.record().holder().equals(me)) {
            adopt(current); // an earlier take whose answer was lost did land
            return;
        }
        if (mode == Mode.UNLEASED) {
            lose("another instance (" + describe(current) + ") holds the lease while this one served without it");
            return;
        }
        long now = clock.monotonicNanos();
        if (current.revision() != seenRevision || !current.record().equals(seenRecord)) {
            seenRevision = current.revision();
            seenRecord = current.record();
            seenSinceNanos = now;
        }
        if (now - seenSinceNanos < timing.duration().toNanos()) {
            takeDueInNanos = timing.duration().toNanos() - (now - seenSinceNanos);
            standing = standing.with("waiting", epochOf(current), current.record().holder(), null,
                    "held by " + describe(current));
            return;
        }
        take(current);
    }

    private void take(LeaseStore.Versioned abandoned) {
        long sentAt = clock.monotonicNanos();
        long highest;
        long revision;
        try {
            highest = floor.highest();
            if (moveStorePast(highest) && abandoned == null) {
                // The wipe erased whoever held the lease, who may still act until its own deadline:
                // an empty key now proves nothing, so wait a full duration as for any holder.
                resetSeenSinceNanos = sentAt;
                standing = standing.with("waiting", 0, null, null, "the lease store was reset: waiting a full "
                        + timing.duration() + " before taking, as an earlier holder may still be acting");
                return;
            }
            // Epoch 0 in the value means "the revision of this very write": the first renewal writes it out.
            LeaseRecord record = new LeaseRecord(me, 0, clock.now(), clock.now());
            revision = abandoned == null ? calls.call(() -> store.create(record), candidateBound())
                    : calls.call(() -> store.update(record, abandoned.revision()), candidateBound());
            floor.raise(revision);
        } catch (LeaseStoreException e) {
            waitingOrUnleased(e, "the lease could not be taken");
            return;
        } catch (IOException e) {
            // Without the floor on record a later epoch could go backwards: do not act.
            standing = standing.with("waiting", 0, null, null, "the epoch floor in the spool is unusable: "
                    + e.getMessage());
            LOG.errorf("not taking the controller lease: %s", e.getMessage());
            return;
        }
        if (abandoned != null) {
            LOG.warnf("took the controller lease over from %s, which stopped renewing it without giving it back;"
                    + " now epoch %d", describe(abandoned), revision);
        } else {
            LOG.infof("took the controller lease: epoch %d", revision);
        }
        heldRevision = revision;
        heldEpoch = revision;
        takenAt = clock.now();
        lastRenewalSentNanos = sentAt;
        mode = Mode.HELD;
        standing = standing.with("held", revision, me, takenAt, "held by this instance");
    }

    /** Returns true when the store was found behind the floor (its data wiped) and moved past it. */
    private boolean moveStorePast(long highest) throws LeaseStoreException {
        long storeAt = calls.call(store::lastRevision, candidateBound());
        if (storeAt >= highest) {
            return false;
        }
        calls.call(() -> store.moveRevisionsPast(highest), candidateBound());
        String said = "the lease store was at revision " + storeAt + " while epoch " + highest
                + " was already issued (its data was wiped or replaced); its revisions were moved past " + highest
                + " so epochs never go backwards";
        LOG.warn(said);
        standing = standing.withReset(new Standing.Reset(clock.now(), storeAt, highest, said));
        return true;
    }

    private void adopt(LeaseStore.Versioned mine) {
        try {
            floor.raise(epochOf(mine));
        } catch (IOException e) {
            standing = standing.with("waiting", 0, null, null, "the epoch floor in the spool is unusable: "
                    + e.getMessage());
            return;
        }
        // The entry may be as old as a full duration: hold it only once a renewal of it has succeeded.
        long sentAt = clock.monotonicNanos();
        long epoch = epochOf(mine);
        Instant taken = mine.record().takenAt() == null ? clock.now() : mine.record().takenAt();
        LeaseRecord record = new LeaseRecord(me, epoch, taken, clock.now());
        try {
            heldRevision = calls.call(() -> store.update(record, mine.revision()), candidateBound());
        } catch (LeaseStoreException e) {
            waitingOrUnleased(e, "an earlier take of this instance could not be confirmed");
            return;
        }
        heldEpoch = epoch;
        takenAt = taken;
        lastRenewalSentNanos = sentAt;
        mode = Mode.HELD;
        standing = standing.with("held", heldEpoch, me, record.renewedAt(), "held by this instance");
    }

    private void renew() {
        long deadline = lastRenewalSentNanos + timing.renewDeadline().toNanos();
        long sentAt = clock.monotonicNanos();
        if (sentAt >= deadline - BoundedCalls.SHORTEST.toNanos()) {
            lose("no renewal succeeded within leasehold.lease.renew-deadline (" + timing.renewDeadline() + ")");
            return;
        }
        Duration left = Duration.ofNanos(deadline - sentAt);
        LeaseRecord record = new LeaseRecord(me, heldEpoch, takenAt, clock.now());
        try {
            heldRevision = calls.call(() -> store.update(record, heldRevision), left);
            lastRenewalSentNanos = sentAt;
            if (mode == Mode.HELD) { // the gate may have found the deadline passed meanwhile
                standing = standing.with("held", heldEpoch, me, record.renewedAt(), "held by this instance");
            }
        } catch (LeaseStoreException e) {
            if (e.kind() == LeaseStoreException.Kind.INDETERMINATE) {
                LOG.warnf("renewal of epoch %d did not answer: %s", heldEpoch, e.getMessage());
                if (clock.monotonicNanos() >= deadline) {
                    // The next tick could be skipped while this one ran: stop now, not a period later.
                    lose("no renewal succeeded within leasehold.lease.renew-deadline (" + timing.renewDeadline()
                            + ")");
                }
            } else if (e.kind() == LeaseStoreException.Kind.CONFLICT) {
                recheckAfterConflict(deadline);
            } else {
                lose("the store refused the renewal: " + e.getMessage());
            }
        }
    }

    /** Someone wrote: only if the entry still shows this holder's own last write may it go on. */
    private void recheckAfterConflict(long deadline) {
        long left = deadline - clock.monotonicNanos();
        if (left < BoundedCalls.SHORTEST.toNanos()) {
            lose("no renewal succeeded within leasehold.lease.renew-deadline (" + timing.renewDeadline() + ")");
            return;
        }
        try {
            Optional<LeaseStore.Versioned> seen = calls.call(store::read, Duration.ofNanos(left));
            if (seen.isPresent() && seen.get().record().holder().equals(me) && epochOf(seen.get()) == heldEpoch) {
                heldRevision = seen.get().revision(); // a renewal whose answer was lost had landed
                return;
            }
            lose("another writer changed the lease: " + seen.map(this::describe).orElse("it was deleted"));
        } catch (LeaseStoreException e) {
            LOG.warnf("after a refused renewal, the lease could not be read: %s", e.getMessage());
        }
    }

    private void waitingOrUnleased(LeaseStoreException e, String what) {
        if (e.kind() == LeaseStoreException.Kind.DENIED) {
            if (mode != Mode.UNLEASED) {
                LOG.warnf("serving WITHOUT the controller lease (epoch 0): %s: %s; trying again every %s", what,
                        e.getMessage(), timing.renewEvery());
            }
            mode = Mode.UNLEASED;
            standing = standing.with("unleased", 0, null, null, what + ": " + e.getMessage());
            return;
        }
        standing = standing.with(mode == Mode.UNLEASED ? "unleased" : "waiting", 0, standing.holder(), null,
                what + ": " + e.getMessage());
    }

    private void lose(String why) {
        if (!lostOnce.compareAndSet(false, true)) {
            return;
        }
        long epoch = heldEpoch;
        mode = Mode.LOST;
        standing = standing.with("lost", epoch, standing.holder(), standing.renewedAt(), why);
        LOG.errorf("the controller lease was lost (epoch %d): %s", epoch, why);
        onLost.accept(standing);
    }

    /** Gives the lease back at a clean shutdown, so the next holder need not wait a full duration. */
    public void release() {
        Mode was = mode;
        mode = Mode.RELEASED; // terminal: no later step takes it again, no act passes the gate
        if (was != Mode.HELD) {
            return;
        }
        try {
            calls.call(() -> {
                store.delete(heldRevision);
                return null;
            }, RELEASE_LIMIT);
            LOG.infof("released the controller lease (epoch %d)", heldEpoch);
        } catch (LeaseStoreException e) {
            LOG.warnf("could not release the controller lease (epoch %d): %s; it expires after %s", heldEpoch,
                    e.getMessage(), timing.duration());
        }
        standing = standing.with("waiting", 0, null, null, "released at shutdown");
    }

    /**
     * A candidate has no deadline to keep, so its calls may take longer than a tick: long enough for a
     * permission refusal, which NATS only reports after its own request timeout, to be told apart
     * from silence. Ticks that fall due meanwhile are skipped, not queued.
     */
    private Duration candidateBound() {
        return timing.duration();
    }

    private static long epochOf(LeaseStore.Versioned versioned) {
        return versioned.record().epoch() != 0 ? versioned.record().epoch() : versioned.revision();
    }

    private String describe(LeaseStore.Versioned versioned) {
        Holder h = versioned.record().holder();
        return h.instance() + " on " + h.host() + " at epoch " + epochOf(versioned);
    }
}
