package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.ItemId;
import io.leasehold.core.LeaseTerms;
import io.leasehold.core.Schedule;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * POST /items: the id is reserved first ({@link Reservations}), which makes it known to every instance
 * while the body still streams in. The payload is written to an upload file in tmp/, fsynced, linked
 * into pending/ (link(2) never replaces an item), and pending/ synced — a sync shared with the enqueues
 * around it ({@link GroupCommit}) that began after this link; only then is the upload name unlinked, the
 * item announced, and the answer 201. Until the unlink, other instances see the item as an enqueue in
 * flight ({@link HalfMoves}) and leave it alone, so a failed sync can withdraw it ({@link Withdrawal}).
 * Every failure on the way is an error answer that leaves nothing behind: never 201 for an item that is
 * not durably in pending/.
 *
 * <p>An item scheduled for later is renamed from its upload into a claim of nobody's instead, parked until
 * its runAt ({@link Schedule}), after its record says so (a taker then counts its first attempt, not an
 * abandonment); claimed/ is synced, and a failed sync takes it back as a failed pending sync does.
 */
final class Enqueue {

    private static final int COPY_BUFFER = 64 * 1024;
    private static final Logger LOG = Logger.getLogger(Enqueue.class);

    private final SpoolLayout layout;
    private final ItemQueries queries;
    private final Reservations reservations;
    private final SpoolCensus census;
    private final Clock clock;
    private final GroupCommit pendingSync;
    private final GroupCommit claimedSync;
    private final AttemptRecords records;
    private final LeaseTerms terms;
    private volatile Consumer<String> arrivals = id -> { };

    Enqueue(SpoolLayout layout, ItemQueries queries, Reservations reservations, SpoolCensus census, Clock clock,
            GroupCommit pendingSync, GroupCommit claimedSync, AttemptRecords records, LeaseTerms terms) {
        this.claimedSync = claimedSync;
        this.records = records;
        this.terms = terms;
        this.layout = layout;
        this.queries = queries;
        this.reservations = reservations;
        this.census = census;
        this.clock = clock;
        this.pendingSync = pendingSync;
    }

    /** Told of each item that just became claimable, so a drain claims it without waiting for its poll. */
    void whenArrived(Consumer<String> arrivals) {
        this.arrivals = arrivals;
    }

    ItemView enqueue(String id, InputStream payload, long maxBytes, Instant runAt) throws IOException {
        ItemId.require(id);
        Optional<ClaimName> parked = Schedule.parkedClaim(id, runAt, clock.now(), terms);
        Path upload = layout.file(SpoolFolder.TMP, HalfMoves.UPLOAD_PREFIX + id + "~"
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36));
        Throwable failure = null;
        try (FileChannel channel = FileChannel.open(upload, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long ino = FileFacts.of(upload).orElseThrow(() -> new ItemStore.UploadLostException(id)).ino();
            // Known from here on, to every instance: a second enqueue is 409 while this one still uploads.
            // Dated when it was enqueued, on the service's clock.
            Reservations.Made reservation = reservations.reserveOwn(id, ino, clock.now())
                    .orElseThrow(() -> new ItemStore.DuplicateItemException(id));
            boolean enqueued = false;
            try {
                if (queries.lookOnce(id).isPresent()) {
                    throw new ItemStore.DuplicateItemException(id); // an item of a spool older than reservations
                }
                writeDurably(channel, payload, maxBytes);
                if (parked.isPresent()) {
                    park(parked.get(), upload);
                } else {
                    linkIntoPending(id, upload);
                }
                try {
                    (parked.isPresent() ? claimedSync : pendingSync).awaitSync();
                } catch (IOException e) {
                    // Not durable: take it back. Only a drain that claimed it first keeps it (and its id known).
                    try {
                        enqueued = parked.isPresent() ? !unpark(parked.get()) : !Withdrawal.withdraw(layout, id, ino);
                    } catch (IOException | RuntimeException takeBack) {
                        // Left in pending/ unsynced, or gone: the id is released either way, and a pending
                        // file nobody reserved is admitted by the drain as one dropped in.
                        e.addSuppressed(takeBack);
                    }
                    throw enqueued ? Withdrawal.keptAnyway(id, e) : e;
                }
                enqueued = true;
            } catch (IOException | RuntimeException | Error e) {
                if (!enqueued) {
                    release(reservation, e);
                }
                throw e;
            }
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            removeUpload(id, upload, failure);
        }
        Instant now = clock.now();
        if (parked.isPresent()) {
            census.scheduled(id, parked.get().generation());
            return ItemView.ofClaim(parked.get(), Optional.of(SCHEDULED), terms);
        }
        census.enqueued(now);
        arrivals.accept(id);
        return new ItemView(id, ItemState.PENDING.label(), null, null, null, null, now);
    }

    /** The id is free again, or its release is owed and the failure told with the error that caused it. */
    private void release(Reservations.Made reservation, Throwable cause) {
        try {
            reservations.release(reservation);
        } catch (IOException e) {
            cause.addSuppressed(e);
            LOG.warnf("the reservation of '%s' could not be released (%s): the next enqueue of it here, or housekeeping"
                    + " within a minute, releases it; until then other instances answer 409 for it", reservation.id(),
                    e.getMessage());
        }
    }

    /**
     * After the link the item keeps its pending/ name; before it (or withdrawn), nothing of it is left. An
     * unlink that fails is added to the error answered; after a durable enqueue it is only logged: the upload's
     * second name is removed once it is stale ({@link HalfMoves}), and the item is answered 201 as it is.
     */
    private static void removeUpload(String id, Path upload, Throwable failure) {
        try {
            Files.deleteIfExists(upload);
        } catch (IOException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            } else {
                LOG.warnf("the upload of %s could not be unlinked from tmp/ (%s): the drain removes that name once"
                        + " it is %s old", id, e.getMessage(), HalfMoves.UPLOAD_GRACE);
            }
        }
    }

    private static final AttemptRecord SCHEDULED = new AttemptRecord(AttemptRecord.Kind.SCHEDULED, 0, "");

    /** Its record first, then the claim's name by one rename (a name unique to it: nothing is replaced). */
    private void park(ClaimName claim, Path upload) throws IOException {
        records.write(claim.id(), claim.generation(), SCHEDULED);
        if (!SpoolLayout.moveToUniqueName(upload, layout.claimFile(claim))) {
            records.forget(claim.id());
            throw new ItemStore.UploadLostException(claim.id());
        }
    }

    /** Takes a parked item back whose sync failed: false when a drain took it meanwhile (its runAt came). */
    private boolean unpark(ClaimName claim) throws IOException {
        Path away = layout.file(SpoolFolder.TMP, Withdrawal.PREFIX + claim.id() + "~" + claim.generation());
        if (!SpoolLayout.moveToUniqueName(layout.claimFile(claim), away)) {
            return false;
        }
        Files.deleteIfExists(away);
        records.forget(claim.id());
        return true;
    }

    private void linkIntoPending(String id, Path upload) throws IOException {
        switch (SharedNames.link(upload, layout.file(SpoolFolder.PENDING, id))) {
            case LINKED:
                return;
            case TAKEN:
                throw new ItemStore.DuplicateItemException(id, "pending/" + id
                        + " was dropped in while it was uploaded");
            default:
                throw new ItemStore.UploadLostException(id);
        }
    }

    /** Every write refreshes the upload's modification time: the stale-tmp cleanup leaves a live upload alone. */
    private static void writeDurably(FileChannel channel, InputStream payload, long maxBytes) throws IOException {
        OutputStream out = Channels.newOutputStream(channel);
        byte[] buffer = new byte[COPY_BUFFER];
        long written = 0;
        int n;
        while ((n = payload.read(buffer)) >= 0) {
            written += n;
            if (written > maxBytes) {
                throw new ItemStore.PayloadTooLargeException(maxBytes);
            }
            out.write(buffer, 0, n);
        }
        out.flush();
        channel.force(true);
    }
}
