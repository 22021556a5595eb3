package io.leasehold.spool;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** What the API does to the spool: enqueue, look up, list, count, cancel, retry. Blocking. */
public interface ItemStore {

    /**
     * Writes the payload durably and only then makes it visible as pending, never replacing an
     * existing item. Nothing is left in pending when this throws.
     */
    default ItemView enqueue(String id, InputStream payload, long maxBytes) throws IOException {
        return enqueue(id, payload, maxBytes, null);
    }

    /**
     * As {@link #enqueue(String, InputStream, long)}, not run before {@code runAt}: the item is parked
     * under a claim of nobody's until then (shown "scheduled"), durably before this returns. A null
     * {@code runAt}, or one not in the future, is an item to run now, in pending.
     */
    ItemView enqueue(String id, InputStream payload, long maxBytes, Instant runAt) throws IOException;

    /**
     * Starts a batch enqueue, all or nothing: items are staged as they are read and made visible as pending
     * together by {@link StagedBatch#commit()}; closing it without a commit leaves nothing behind.
     */
    StagedBatch stageBatch(long maxBytes) throws IOException;

    Optional<ItemView> lookup(String id) throws IOException;

    /**
     * The payload of the item, in whatever state it is (a staged one is no item yet); empty when there is none.
     * Never read past {@code leasehold.item.max-bytes}; an entry that is no item the spool can trust (a FIFO, a
     * link) is refused with {@link UnfitPayloadException}, unread.
     */
    Optional<byte[]> payload(String id) throws IOException;

    /** Items in one state, oldest first, at most {@code limit}. */
    default List<ItemView> list(ItemState state, int limit) throws IOException {
        return list(state, ItemListing.first(limit));
    }

    /** One page of the items in one state, oldest first ({@link ItemListing.Position}: since, then id). */
    List<ItemView> list(ItemState state, ItemListing page) throws IOException;

    /**
     * The parked claims shown as {@code shownAs} ({@link ItemView#SCHEDULED} or {@link ItemView#RETRYING}),
     * soonest runAt first, at most {@code limit}.
     */
    default List<ItemView> listParked(String shownAs, int limit) throws IOException {
        return listParked(shownAs, ItemListing.first(limit));
    }

    /** One page of the parked claims shown as {@code shownAs}, soonest first (runAt, then id). */
    List<ItemView> listParked(String shownAs, ItemListing page) throws IOException;

    /**
     * One page of the items shown as {@code shown} (a state, or scheduled or retrying for the parked claims), with
     * the cursor of the next when more follow: one item more than the page is read to know.
     */
    default ItemPage page(String shown, ItemListing listing) throws IOException {
        boolean parked = shown.equals(ItemView.SCHEDULED) || shown.equals(ItemView.RETRYING);
        ItemState state = parked ? ItemState.CLAIMED : ItemState.parse(shown).orElseThrow(
                () -> new IllegalArgumentException("state must be pending, claimed, scheduled, retrying, done or failed"));
        List<ItemView> found = parked ? listParked(shown, listing.oneMore()) : list(state, listing.oneMore());
        if (found.size() <= listing.limit()) {
            return new ItemPage(found, Optional.empty());
        }
        List<ItemView> items = List.copyOf(found.subList(0, listing.limit()));
        return new ItemPage(items, Optional.of(ItemListing.Position.of(items.get(items.size() - 1), parked).cursor()));
    }

    /**
     * Items per state and the oldest pending one's age, each item counted once (a parked claim as scheduled or
     * retrying, not as claimed); other instances' moves may show a recount late.
     */
    SpoolCounts counts() throws IOException;

    /**
     * The counts kept in memory, with no file or network call at all: what a metrics scrape reads, on
     * whatever thread it runs. Other instances' moves show after a recount.
     */
    SpoolCounts countsNow();

    /**
     * The running claims' ages (every holder's; parked ones left out), kept in memory: as for
     * {@link #countsNow()}, no file or network call. A claim's age counts from the earliest lease reading
     * seen of it, on its holder's clock; {@code bound} is the age past which a claim is counted as older.
     */
    ClaimAges claimAgesNow(Duration bound);

    /** A fresh id for an item posted without one: time-ordered, so listings read naturally. */
    String newId();

    /** Told of each item that just became claimable through this store (an enqueue, a batch, a retry). */
    void whenArrived(Consumer<String> arrivals);

    /** A pending or scheduled item (neither is running) goes to failed with the reason "cancelled". */
    ItemView cancel(String id) throws IOException;

    /** A failed item goes back to pending, its attempts counted afresh. */
    ItemView retry(String id) throws IOException;

    /**
     * Removes a settled item (state done or failed): its file, then its bookkeeping, then its
     * reservation, after which its id may be enqueued again. False when there is no such item.
     */
    boolean purge(String id, ItemState settled) throws IOException;

    /**
     * Removes one settled item by {@link #purge}, whichever settled state it is in: the one-item purge of
     * {@code POST /items/{id}/purge} and of {@code items purge ID}. An item still to run is refused, saying what
     * to do first; of two purges at once the one that finds it removed already answers no such item.
     */
    default void purgeSettled(String id) throws IOException {
        ItemView item = lookup(id).orElseThrow(() -> new NoSuchItemException(id));
        Optional<ItemState> settled = ItemState.parse(item.state())
                .filter(s -> s == ItemState.DONE || s == ItemState.FAILED);
        if (settled.isPresent() && purge(id, settled.get())) {
            return;
        }
        // Refused, or moved meanwhile (removed by another purge, or a failed item retried): say which.
        ItemView now = settled.isEmpty() ? item : lookup(id).orElseThrow(() -> new NoSuchItemException(id));
        throw new WrongStateException(id, now.state(), "done or failed", switch (now.state()) {
            case "pending", ItemView.SCHEDULED -> "cancel it first (DELETE /items/" + id + ", or items cancel "
                    + id + "), then purge it";
            case "claimed" -> "it is running now: purge it once it is done or failed";
            case ItemView.RETRYING -> "it runs again from its runAt: purge it once it is done or failed";
            default -> "it moved while being purged: try again";
        });
    }

    /**
     * Walks the items in {@code settled} (done or failed) without holding them all in memory: each
     * {@link SettledWalk#next} answers the next few. With {@code reasons}, a failed item's reason comes too
     * (on the directory one bounded read per item, so ask only when it is needed). Items that move while
     * the walk runs may be answered or not, and what the walk says is a look, never a decision: a bulk
     * action moves each item by {@link #retry} or {@link #purge}, which decide.
     */
    SettledWalk walkSettled(ItemState settled, boolean reasons) throws IOException;

    /** A settled item as a walk saw it: when it was settled (on its settler's clock) and, if asked, why it failed. */
    record Settled(String id, Instant settledAt, String reason) {
    }

    /** A walk over one state's items; close it when done (on the directory it holds the folder open). */
    interface SettledWalk extends AutoCloseable {

        /** Up to {@code max} more items; empty once the walk is over. */
        List<Settled> next(int max) throws IOException;

        @Override
        void close();
    }

    /** Refuses anything but done and failed, the states a purge or a walk of settled items takes. */
    static void requireSettled(ItemState state) {
        if (state != ItemState.DONE && state != ItemState.FAILED) {
            throw new IllegalArgumentException("only settled items (done, failed) are meant, not " + state.label() + " ones");
        }
    }


    /** The id is known already: an item of it is in some state, or its enqueue has begun. */
    final class DuplicateItemException extends IOException {
        private final int line;

        public DuplicateItemException(String id) {
            this(id, 0);
        }

        /** Found known when a batch's answers came in, after later lines were read: {@code line} is its own. */
        public DuplicateItemException(String id, int line) {
            super("item '" + id + "' already exists: an id names one item until it is purged; see it with GET /items/"
                    + id + " or enqueue under another id");
            this.line = line;
        }

        public DuplicateItemException(String id, String why) {
            super("item '" + id + "' already exists: " + why);
            this.line = 0;
        }

        /** The batch line whose id is known; 0 when it is the line being read (or no batch). */
        public int line() {
            return line;
        }
    }

    /** What is kept as an attempt's output is not one leasehold wrote (junk, a link): named, never followed. */
    final class UnfitOutputException extends IOException {
        public UnfitOutputException(String why) {
            super(why);
        }
    }

    /** Under the item's name is something that is not an item this spool may move (junk, or a second file). */
    final class UnfitItemException extends IOException {
        public UnfitItemException(String id, String why) {
            super("item '" + id + "' cannot be moved: " + why);
        }
    }

    /** What is under the id is no payload the spool can trust (a link, a FIFO, a second name, too large): not read. */
    final class UnfitPayloadException extends IOException {
        public UnfitPayloadException(String id, String why) {
            super("the payload of '" + id + "' is not read: " + why);
        }
    }

    /** The upload was removed before it could be made pending; nothing was kept. */
    final class UploadLostException extends IOException {
        public UploadLostException(String id) {
            super("the upload of item '" + id + "' vanished from tmp/ before it could be linked into pending/ "
                    + "(another instance removes files in tmp/ not written for leasehold.spool.tmp-max-age); nothing "
                    + "was enqueued: send it again");
        }
    }

    /**
     * The spool's store cannot be reached now (a server restarting, a connection reconnecting): nothing was
     * decided, the call may be made again shortly.
     */
    /** An enqueue that failed once its item was in the spool already (claimed by a drain): do not send it again. */
    final class EnqueuedAnywayException extends IOException {
        public EnqueuedAnywayException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    final class SpoolUnavailableException extends IOException {
        public SpoolUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The payload is larger than allowed; nothing was kept. */
    final class PayloadTooLargeException extends IOException {
        public PayloadTooLargeException(long maxBytes) {
            super("payload larger than " + maxBytes + " bytes (leasehold.item.max-bytes)");
        }
    }

    final class NoSuchItemException extends IOException {
        public NoSuchItemException(String id) {
            super("no item '" + id + "'");
        }

        /** Something of the item that is not there (an attempt's output), said in {@code message}. */
        public NoSuchItemException(String id, String message) {
            super(message);
        }
    }

    /** The item exists but not in the state the call needs. */
    final class WrongStateException extends IOException {
        public WrongStateException(String id, String actual, String needed) {
            super("item '" + id + "' is " + actual + ", not " + needed);
        }

        /** With what the caller can do about it. */
        public WrongStateException(String id, String actual, String needed, String advice) {
            super("item '" + id + "' is " + actual + ", not " + needed + ": " + advice);
        }
    }
}
