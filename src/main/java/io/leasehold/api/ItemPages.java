package io.leasehold.api;

import io.leasehold.core.ItemId;
import io.leasehold.spool.ItemListing;
import io.leasehold.spool.ItemState;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.ItemView;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * {@code GET /items}, one page at a time: the answer stays a JSON array, and when more items follow a
 * {@code Link: </items?...&after=CURSOR>; rel="next"} header (RFC 8288) names the next page, the same query
 * with the cursor of the page's last item. One item more than the page is read to know whether one follows.
 */
final class ItemPages {

    /** A search text longer than any id or reason worth typing is a mistake (a pasted payload), said as one. */
    static final int MAX_TEXT = 200;

    private ItemPages() {
    }

    static Uni<RestResponse<List<ItemView>>> page(ItemStore store, String state, int limit, String after, String q,
            UriInfo uri) {
        boolean parked = state.equals(ItemView.SCHEDULED) || state.equals(ItemView.RETRYING);
        ItemState wanted = parked ? ItemState.CLAIMED : ItemState.parse(state).orElseThrow(
                () -> new IllegalArgumentException("state must be pending, claimed, scheduled, retrying, done or failed"));
        ItemListing listing = new ItemListing(limit, after == null || after.isEmpty() ? null : ItemListing.Position.parse(after),
                text(q));
        return OnWorkers.io(() -> parked ? store.listParked(state, listing.oneMore()) : store.list(wanted, listing.oneMore()))
                .map(found -> {
                    List<ItemView> shown = found.size() > limit ? List.copyOf(found.subList(0, limit)) : found;
                    RestResponse.ResponseBuilder<List<ItemView>> answer = RestResponse.ResponseBuilder.ok(shown);
                    if (found.size() > limit) {
                        String next = uri.getRequestUriBuilder().replaceQueryParam("after",
                                ItemListing.Position.of(shown.get(limit - 1), parked).cursor()).build().getRawQuery();
                        answer.header("Link", "<" + uri.getRequestUri().getRawPath() + "?" + next + ">; rel=\"next\"");
                    }
                    return answer.build();
                });
    }

    private static String text(String q) {
        if (q == null || q.isEmpty()) {
            return null;
        }
        String shown = ItemId.printable(q.length() > 40 ? q.substring(0, 40) + "…" : q);
        if (q.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("q must be text on one line (an id's start or words of a reason), got '"
                    + shown + "'");
        }
        if (q.length() > MAX_TEXT) {
            throw new IllegalArgumentException("q must be at most " + MAX_TEXT + " characters (an id's start or words of"
                    + " a reason), got " + q.length() + ": '" + shown + "'");
        }
        return q;
    }
}
