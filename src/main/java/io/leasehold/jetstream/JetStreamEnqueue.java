package io.leasehold.jetstream;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.Schedule;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/** One item's enqueue on the JetStream spool: the reservation, the payload, the commit, and their take-backs. */
final class JetStreamEnqueue {

    private final Ledger ledger;
    private final Payloads payloads;
    private final OwedTakeBacks owed;
    private final LeaseTerms terms;
    private final Clock clock;
    /** Told of an item that is pending now, so a drain here claims it at once. */
    private final Consumer<String> arrived;

    JetStreamEnqueue(Ledger ledger, Payloads payloads, OwedTakeBacks owed, LeaseTerms terms, Clock clock,
            Consumer<String> arrived) {
        this.ledger = ledger;
        this.payloads = payloads;
        this.owed = owed;
        this.terms = terms;
        this.clock = clock;
        this.arrived = arrived;
    }

    /**
     * The id is reserved first, as a staged entry of its own (known to every instance from then on, so a
     * second enqueue is refused while this one still uploads), then the payload is read, then the entry
     * turns pending at the revision it was created at: two writes. The reservation's answer is awaited
     * only once the payload's first {@link LedgerEntry#INLINE_MAX} bytes are read, so the two overlap. A
     * payload of at most that many bytes goes in the entry itself; a larger one streams into the object
     * store, under the name the reservation recorded, once the reservation is known to be this one's. A
     * failed upload removes the reservation and what was stored of the payload; when NATS cannot be asked
     * (or a write's answer was lost) that take-back is owed, paid by the id's next enqueue here and by
     * housekeeping once NATS answers ({@link OwedTakeBacks}); a reservation whose enqueue died with its
     * instance is rolled back by housekeeping past {@code spool.tmp-max-age}, like a batch without its marker.
     */
    ItemView enqueue(String id, InputStream payload, long maxBytes, Instant runAt) throws IOException {
        ItemId.require(id);
        owed.pay(id); // an earlier enqueue of it here failed while NATS was away: its reservation goes first
        Optional<ClaimName> parked = Schedule.parkedClaim(id, runAt, clock.now(), terms);
        String name = Payloads.freshName(id);
        Instant now = clock.now();
        LedgerEntry reserved = LedgerEntry.staged("enqueue-" + name, now, name);
        OverlappedWrites reservation = new OverlappedWrites(ledger);
        reservation.send(new OverlappedWrites.Write(id, null, reserved));
        int inlineMax = (int) Math.min(LedgerEntry.INLINE_MAX, maxBytes);
        byte[] head;
        try {
            head = payload.readNBytes(inlineMax + 1);
        } catch (IOException | RuntimeException e) {
            try {
                reservation.await().get(0).landed().ifPresent(mine -> withdraw(id, mine, name, reserved, e));
            } catch (IOException unknown) { // the reservation may have landed: taken back once NATS answers
                e.addSuppressed(unknown);
                owed.owe(id, new OwedTakeBacks.Owed(name, reserved.token(), null));
            }
            throw e;
        }
        Ledger.Seen mine;
        try {
            mine = reservation.await().get(0).landed().orElseThrow(() -> new ItemStore.DuplicateItemException(id));
        } catch (ItemStore.DuplicateItemException e) {
            throw e;
        } catch (IOException e) {
            owed.owe(id, new OwedTakeBacks.Owed(name, reserved.token(), null));
            throw e;
        }
        LedgerEntry next;
        try {
            next = withPayload(reserved, head, payload, maxBytes);
            next = parked.isPresent() ? next.scheduledAs(parked.get()) : next;
        } catch (IOException | RuntimeException e) {
            withdraw(id, mine, name, reserved, e);
            throw e;
        }
        Optional<Ledger.Seen> committed;
        try {
            committed = ledger.move(id, mine, next);
        } catch (IOException e) { // landed or not: which, its tokens tell once NATS answers
            owed.owe(id, new OwedTakeBacks.Owed(name, reserved.token(), next.token()));
            throw e;
        }
        if (committed.isEmpty()) {
            // Removed meanwhile (housekeeping took it for a dead enqueue's): nothing of it is claimable.
            payloads.delete(next.payload());
            throw new IOException("the reservation of '" + id + "' was taken back as stale by housekeeping while its"
                    + " payload uploaded (an upload longer than leasehold.item.upload-timeout, or clocks far apart);"
                    + " nothing was enqueued: send it again");
        }
        if (parked.isPresent()) {
            return ItemView.ofClaim(parked.get(), Optional.of(next.records().get(parked.get().generation().toString())),
                    terms);
        }
        arrived.accept(id);
        return new ItemView(id, ItemState.PENDING.label(), null, null, null, null, now);
    }

    /** The reservation made pending with the payload: inline when {@code head} is all of it, else stored as an object. */
    private LedgerEntry withPayload(LedgerEntry reserved, byte[] head, InputStream rest, long maxBytes)
            throws IOException {
        if (head.length <= Math.min(LedgerEntry.INLINE_MAX, maxBytes)) {
            return reserved.committedInline(head);
        }
        if (maxBytes <= LedgerEntry.INLINE_MAX) {
            throw new ItemStore.PayloadTooLargeException(maxBytes);
        }
        payloads.put(reserved.payload(), new SequenceInputStream(new ByteArrayInputStream(head), rest), maxBytes);
        return reserved.committed();
    }

    /**
     * Takes back a reservation whose upload failed; when NATS cannot be asked now, the take-back is owed
     * ({@link OwedTakeBacks}) and its failure added to the error the enqueue answers.
     */
    private void withdraw(String id, Ledger.Seen reservation, String name, LedgerEntry reserved, Throwable cause) {
        try {
            ledger.remove(id, reservation);
            payloads.delete(name);
        } catch (IOException e) {
            cause.addSuppressed(e);
            owed.owe(id, new OwedTakeBacks.Owed(name, reserved.token(), null));
        }
    }
}
