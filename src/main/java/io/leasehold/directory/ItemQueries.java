package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.core.Clock;
import io.leasehold.core.Generation;
import io.leasehold.core.ItemId;
import io.leasehold.core.LeaseTerms;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemListing;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import io.leasehold.spool.SpoolCounts;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;

/** What the API reads of the spool: one item, the items in one state, the counts. Never moves anything. */
final class ItemQueries {

    private static final int LOOKS = 3; // an item moving between folders can be missed by one round of looks
    private final SpoolLayout layout;
    private final AttemptRecords records;
    private final LeaseTerms terms;
    private final Clock clock;
    private final FolderListing listing;

    ItemQueries(SpoolLayout layout, AttemptRecords records, LeaseTerms terms, Clock clock) {
        this.layout = layout;
        this.listing = new FolderListing(layout);
        this.records = records;
        this.terms = terms;
        this.clock = clock;
    }

    /** The item with its times and its history. */
    Optional<ItemView> lookup(String id) throws IOException {
        ItemId.require(id);
        for (int look = 0; look < LOOKS; look++) {
            Optional<ItemView> found = lookOnce(id);
            if (found.isPresent()) {
                return Optional.of(withHistory(withTimes(found.get())));
            }
        }
        return Optional.empty();
    }

    /**
     * When it was enqueued: the write time of its reservation {@code ids/<id>}, which an enqueue makes
     * when it begins (and dates on the service's clock) and the drain when it first meets a file dropped
     * in; settled: the settled file's modification time, which its settlement set.
     */
    private ItemView withTimes(ItemView view) throws IOException {
        // Looked at, never followed: a reservation is a link to its inode number.
        Instant enqueued = FileFacts.of(layout.file(SpoolFolder.IDS, view.id())).map(FileFacts::modified).orElse(null);
        boolean settled = view.state().equals(ItemState.DONE.label()) || view.state().equals(ItemState.FAILED.label());
        return view.withTimes(enqueued, settled ? view.since() : null);
    }

    /** A claim's history is in its own record; any other item's in the record of its latest claim. */
    private ItemView withHistory(ItemView view) throws IOException {
        Optional<Generation> generation = view.generation() == null ? Optional.empty()
                : Generation.parse(view.generation());
        Optional<AttemptRecord> record = generation.isPresent() ? records.read(view.id(), generation.get())
                : records.latest(view.id()).map(AttemptRecords.Entry::record);
        return view.withHistory(AttemptRecord.historyOf(record));
    }

    /**
     * One round, in the order items move (pending, claimed, settled): a move makes its target before it
     * removes its source, so an item moving forward is never missed.
     */
    Optional<ItemView> lookOnce(String id) throws IOException {
        Optional<BasicFileAttributes> pending = regularFile(layout.file(SpoolFolder.PENDING, id));
        if (pending.isPresent()) {
            return Optional.of(plain(id, ItemState.PENDING, pending.get()));
        }
        Optional<ClaimName> claim = claimOf(id);
        if (claim.isPresent()) {
            return Optional.of(claimed(claim.get()));
        }
        for (ItemState settled : new ItemState[] {ItemState.DONE, ItemState.FAILED}) {
            Optional<BasicFileAttributes> file = regularFile(layout.file(SpoolFolder.of(settled), id));
            if (file.isPresent()) {
                return Optional.of(plain(id, settled, file.get()));
            }
        }
        return Optional.empty();
    }

    /** A claim of this id in claimed/, whatever its generation. */
    Optional<ClaimName> claimOf(String id) throws IOException {
        try (DirectoryStream<Path> entries =
                SpoolLayout.startingWith(layout.folder(SpoolFolder.CLAIMED), id + ClaimName.SEPARATOR)) {
            for (Path entry : entries) {
                Optional<ClaimName> claim = ClaimName.parse(entry.getFileName().toString());
                if (claim.isPresent() && claim.get().id().equals(id)) {
                    return claim;
                }
            }
        }
        return Optional.empty();
    }

    private ItemView claimed(ClaimName claim) throws IOException {
        return ItemView.ofClaim(claim, records.read(claim.id(), claim.generation()), terms);
    }

    private ItemView plain(String id, ItemState state, BasicFileAttributes file) throws IOException {
        String reason = null;
        if (state == ItemState.FAILED) {
            reason = records.failedReason(id).orElse("unknown (no reason was recorded)");
        }
        return new ItemView(id, state.label(), null, null, null, reason, file.lastModifiedTime().toInstant());
    }

    /** Basic attributes only: listings of large folders stat every entry, and need nothing more. */
    static Optional<BasicFileAttributes> regularFile(Path path) throws IOException {
        if (!FileFacts.mayExist(path)) {
            return Optional.empty(); // the usual answer of all but one folder: no exception for it
        }
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isRegularFile() ? Optional.of(a) : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    List<ItemView> list(ItemState state, ItemListing page) throws IOException {
        Comparator<ItemView> oldestFirst = Comparator.comparing(ItemView::since).thenComparing(ItemView::id);
        // A heap of the `limit` oldest seen so far keeps memory bounded in a folder of any size.
        PriorityQueue<ItemView> oldest = new PriorityQueue<>(oldestFirst.reversed());
        boolean reasons = state == ItemState.FAILED || state == ItemState.CLAIMED;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.of(state)))) {
            for (Path entry : entries) {
                Optional<ItemView> view = viewOf(state, entry);
                if (view.isEmpty() || !page.past(ItemListing.Position.of(view.get()))
                        || oldest.size() >= page.limit() && oldestFirst.compare(view.get(), oldest.peek()) > 0) {
                    continue; // before the cursor, or later than every one kept: no record read for it
                }
                if (!page.idMatches(view.get().id()) && !(reasons && page.reasonMatches(withRecords(view.get()).reason()))) {
                    continue;
                }
                oldest.add(view.get());
                if (oldest.size() > page.limit()) {
                    oldest.poll();
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        List<ItemView> out = new ArrayList<>(oldest.size());
        for (ItemView chosen : oldest) {
            // Only the chosen ones: a record read (and a stat of its reservation) per listed item, not per entry.
            ItemView read = withRecords(chosen);
            if (!read.parked()) { // parked since the listing looked: it belongs to scheduled or retrying now
                out.add(withTimes(read));
            }
        }
        out.sort(oldestFirst);
        return out;
    }

    /**
     * The parked claims shown as {@code shownAs} ("scheduled" or "retrying"), soonest run first. Only a
     * claim's records tell, so every claim that has records is read (a stat for the others): the cost
     * grows with claimed/, and only {@code limit} views are held.
     */
    List<ItemView> listParked(String shownAs, ItemListing page) throws IOException {
        Comparator<ItemView> soonest = Comparator.comparing(ItemView::runAt).thenComparing(ItemView::id);
        PriorityQueue<ItemView> first = new PriorityQueue<>(soonest.reversed());
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.folder(SpoolFolder.CLAIMED))) {
            for (Path entry : entries) {
                Optional<ClaimName> claim = ClaimName.parse(entry.getFileName().toString());
                if (claim.isEmpty() || !records.mayHave(claim.get().id())) {
                    continue; // held at its first attempt: parked claims always have a record
                }
                ItemView view = claimed(claim.get());
                if (view.state().equals(shownAs) && page.past(ItemListing.Position.of(view)) && page.matches(view)) {
                    first.add(view);
                    if (first.size() > page.limit()) {
                        first.poll();
                    }
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        List<ItemView> out = new ArrayList<>(first.size());
        for (ItemView chosen : first) {
            out.add(withTimes(chosen));
        }
        out.sort(soonest);
        return out;
    }

    /** A listed view with what only the item's records tell (a claim parked for a retry, a failure's reason). */
    private ItemView withRecords(ItemView listed) throws IOException {
        if (listed.state().equals(ItemState.FAILED.label())) {
            return new ItemView(listed.id(), listed.state(), null, null, null,
                    records.failedReason(listed.id()).orElse("unknown (no reason was recorded)"), listed.since());
        }
        if (listed.state().equals(ItemState.CLAIMED.label())) {
            Optional<Generation> generation = Generation.parse(listed.generation());
            if (generation.isPresent()) {
                return claimed(new ClaimName(listed.id(), generation.get(), listed.since()));
            }
        }
        return listed;
    }

    private Optional<ItemView> viewOf(ItemState state, Path entry) throws IOException {
        String name = entry.getFileName().toString();
        if (state == ItemState.CLAIMED) {
            // Held claims only: a parked one is listed as scheduled or retrying. Only a claim with a record
            // can be parked, so the others cost no read; the chosen few are read again (withRecords).
            Optional<ClaimName> claim = ClaimName.parse(name);
            AttemptRecord.Kind kind = claim.isEmpty() ? AttemptRecord.Kind.NOTE : records.kindOf(claim.get());
            if (claim.isEmpty() || kind == AttemptRecord.Kind.SCHEDULED || kind == AttemptRecord.Kind.RETRY) {
                return Optional.empty();
            }
            return Optional.of(ItemView.ofClaim(claim.get(), Optional.empty(), terms));
        }
        if (!ItemId.isValid(name)) {
            return Optional.empty();
        }
        Optional<BasicFileAttributes> file = regularFile(entry);
        return file.isEmpty() ? Optional.empty()
                : Optional.of(new ItemView(name, state.label(), null, null, null, null, file.get().lastModifiedTime()
                        .toInstant()));
    }

    /** A walk of done/ or failed/ ({@link SettledWalks}). */
    ItemStore.SettledWalk walkSettled(ItemState state, boolean reasons) throws IOException {
        return SettledWalks.of(layout, records, state, reasons);
    }

    /** The full count, a listing of every folder and a stat of every pending file: what the census recounts to. */
    SpoolCounts counts() throws IOException {
        Instant now = clock.now();
        FolderListing.PendingLook pending = listing.pending(1);
        long ageMs = pending.oldest().isEmpty() ? 0
                : Math.max(0, now.toEpochMilli() - pending.oldest().get(0).writtenMillis());
        long held = 0;
        long scheduled = 0;
        long retrying = 0;
        for (ClaimName claim : listing.claims()) {
            switch (records.kindOf(claim)) {
                case SCHEDULED -> scheduled++;
                case RETRY -> retrying++;
                default -> held++;
            }
        }
        return new SpoolCounts(pending.count(), held, scheduled, retrying, listing.items(SpoolFolder.DONE),
                listing.items(SpoolFolder.FAILED), ageMs);
    }
}
