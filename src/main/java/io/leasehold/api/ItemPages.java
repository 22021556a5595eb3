package io.leasehold.api;

import io.leasehold.core.ItemId;
import io.leasehold.spool.ItemListing;
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
        ItemListing listing = new ItemListing(limit, after == null || after.isEmpty() ? null : ItemListing.Position.parse(after),
                text(q));
        return OnWorkers.io(() -> store.page(state, listing)).map(page -> {
            RestResponse.ResponseBuilder<List<ItemView>> answer = RestResponse.ResponseBuilder.ok(page.items());
            page.next().ifPresent(cursor -> answer.header("Link", "<" + uri.getRequestUri().getRawPath() + "?"
                    + uri.getRequestUriBuilder().replaceQueryParam("after", cursor).build().getRawQuery() + ">; rel=\"next\""));
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
