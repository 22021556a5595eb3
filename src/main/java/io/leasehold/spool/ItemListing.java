package io.leasehold.spool;

import io.leasehold.core.ItemId;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one page of a listing asks (docs/http-api.md, "Search and paging"): at most {@code limit} items, those
 * after {@code after} in the listing's order, and with a {@code text} only those whose id starts with it (ids
 * are case-sensitive) or whose reason contains it in any case. A page starts past the key of the last item of the page before, so
 * an item is never shown twice nor skipped while it stays in the state and keeps its key.
 */
public record ItemListing(int limit, Position after, String text) {

    public ItemListing {
        if (limit < 1) {
            throw new IllegalArgumentException("a listing shows at least one item");
        }
        text = text == null || text.isEmpty() ? null : text;
    }

    public static ItemListing first(int limit) {
        return new ItemListing(limit, null, null);
    }

    /** The same listing, one more item long: the extra one says whether another page follows. */
    public ItemListing oneMore() {
        return new ItemListing(limit + 1, after, text);
    }

    /** Whether an item at {@code key} is on this page's side of the cursor. */
    public boolean past(Position key) {
        return after == null || key.compareTo(after) > 0;
    }

    /** With no text every id matches; else an id that starts with it. */
    public boolean idMatches(String id) {
        return text == null || id.startsWith(text);
    }

    /** A reason that contains the text, in any case; never a missing reason. */
    public boolean reasonMatches(String reason) {
        return text != null && reason != null
                && reason.toLowerCase(Locale.ROOT).contains(text.toLowerCase(Locale.ROOT));
    }

    /** Whether a view, its reason known, is one this listing shows (the cursor aside). */
    public boolean matches(ItemView view) {
        return idMatches(view.id()) || reasonMatches(view.reason());
    }

    /**
     * A listing's sort key: when the item entered its state (a parked claim: when it runs), then its id. Given
     * to clients as an opaque cursor, {@code <epoch seconds>.<nanoseconds>~<id>}, which every backend orders alike.
     */
    public record Position(Instant at, String id) implements Comparable<Position> {

        private static final Pattern CURSOR = Pattern.compile("(-?\\d{1,19})\\.(\\d{9})~(.+)");

        /** The key of a view in its listing: {@code runAt} for a parked claim, else {@code since}. */
        public static Position of(ItemView view) {
            return of(view, view.parked());
        }

        /**
         * The key of a view in a listing of parked claims ({@code runAt}) or of a state ({@code since}); a time the
         * view lacks (an entry of an older build) orders first, as the backends order it.
         */
        public static Position of(ItemView view, boolean parkedListing) {
            Instant at = parkedListing ? view.runAt() : view.since();
            return new Position(at == null ? Instant.EPOCH : at, view.id());
        }

        public String cursor() {
            return at.getEpochSecond() + "." + String.format(Locale.ROOT, "%09d", at.getNano()) + "~" + id;
        }

        /** The cursor a page's Link header gave; an IllegalArgumentException naming {@code after} for anything else. */
        public static Position parse(String cursor) {
            Matcher m = CURSOR.matcher(cursor);
            if (!m.matches() || !ItemId.isValid(m.group(3))) {
                throw new IllegalArgumentException("after must be the cursor a page's Link header gave (rel=\"next\"),"
                        + " got '" + ItemId.printable(cursor) + "'");
            }
            try {
                return new Position(Instant.ofEpochSecond(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))), m.group(3));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("after must be the cursor a page's Link header gave (rel=\"next\"),"
                        + " got '" + ItemId.printable(cursor) + "'");
            }
        }

        @Override
        public int compareTo(Position o) {
            int byTime = at.compareTo(o.at);
            return byTime != 0 ? byTime : id.compareTo(o.id);
        }
    }
}
