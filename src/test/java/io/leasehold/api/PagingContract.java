package io.leasehold.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * GET /items a page at a time (q= and after=, the Link header), on every backend. Each test's items share a
 * prefix of their own and are found by it (q=), since the JetStream ledger keeps earlier tests' items.
 */
abstract class PagingContract extends BackendContract {

    private static final Pattern NEXT = Pattern.compile("<(/items\\?[^>]+)>; rel=\"next\"");

    private static List<String> enqueue(String prefix, int n) {
        List<String> ids = IntStream.range(0, n).mapToObj(i -> prefix + String.format("-%02d", i)).toList();
        ids.forEach(id -> given().queryParam("id", id).body("p").when().post("/items").then().statusCode(201));
        return ids;
    }

    /** The ids of one page, and the next page's address (null on the last). */
    private record Page(List<String> ids, String next) {
    }

    private static Page get(String pathAndQuery) {
        Response r = given().urlEncodingEnabled(false).when().get(pathAndQuery);
        assertEquals(200, r.statusCode(), r.asString());
        String link = r.header("Link");
        String next = null;
        if (link != null) {
            Matcher m = NEXT.matcher(link);
            assertTrue(m.matches(), "a Link header of one next page: " + link);
            next = m.group(1);
        }
        return new Page(r.jsonPath().getList("id", String.class), next);
    }

    private static List<String> all(String first, List<List<String>> pages) {
        List<String> seen = new ArrayList<>();
        Page page = get(first);
        for (int n = 0; ; n++) {
            assertTrue(n < 100, "paging ends");
            pages.add(page.ids());
            seen.addAll(page.ids());
            if (page.next() == null) {
                return seen;
            }
            page = get(page.next());
        }
    }

    @Test
    void pagesFollowTheLinkHeaderToTheLastWhichHasNone() {
        String prefix = SpoolFixture.uniqueId("paged");
        List<String> ids = enqueue(prefix, 25);
        List<List<String>> pages = new ArrayList<>();
        assertEquals(ids, all("/items?state=pending&limit=10&q=" + prefix, pages), "every item once, oldest first");
        assertEquals(List.of(10, 10, 5), pages.stream().map(List::size).toList());
        assertNull(get("/items?state=pending&limit=25&q=" + prefix).next(), "a page that holds the rest has no next");
        assertEquals(25, get("/items?state=pending&limit=25&q=" + prefix).ids().size());
    }

    @Test
    void theNextLinkKeepsTheQueryAndAddsTheCursor() {
        String prefix = SpoolFixture.uniqueId("linked");
        enqueue(prefix, 3);
        String next = get("/items?state=pending&limit=2&q=" + prefix).next();
        assertTrue(next.startsWith("/items?state=pending&limit=2&q=" + prefix + "&after="), next);
        assertEquals(List.of(prefix + "-02"), get(next).ids());
    }

    /** Items leaving the state (cancelled) or entering it (enqueued) while paging: the others shown once each. */
    @Test
    void itemsThatStayAreNeverShownTwiceNorSkippedWhileOthersComeAndGo() {
        String prefix = SpoolFixture.uniqueId("moving");
        List<String> ids = enqueue(prefix, 30);
        Page first = get("/items?state=pending&limit=10&q=" + prefix);
        assertEquals(ids.subList(0, 10), first.ids());
        for (String gone : List.of(ids.get(3), ids.get(12), ids.get(25))) { // one already shown, two ahead
            given().when().delete("/items/{id}", gone).then().statusCode(200);
        }
        List<String> late = enqueue(prefix + "-late", 3); // after the cursor: shown at the end
        List<String> seen = new ArrayList<>(first.ids());
        for (Page page = get(first.next()); ; page = get(page.next())) {
            seen.addAll(page.ids());
            if (page.next() == null) {
                break;
            }
        }
        Set<String> once = new LinkedHashSet<>(seen);
        assertEquals(seen.size(), once.size(), "no item twice: " + seen);
        List<String> expected = new ArrayList<>(ids);
        expected.remove(ids.get(12));
        expected.remove(ids.get(25));
        expected.addAll(late);
        assertEquals(expected, seen);
    }

    @Test
    void scheduledItemsPageSoonestFirst() {
        String prefix = SpoolFixture.uniqueId("parked");
        List<String> ids = IntStream.range(0, 5).mapToObj(i -> prefix + "-" + i).toList();
        for (int i = 0; i < ids.size(); i++) { // the last one runs soonest
            given().queryParam("id", ids.get(i)).queryParam("delay", (10 - i) + "m").body("p").when().post("/items")
                    .then().statusCode(201);
        }
        List<List<String>> pages = new ArrayList<>();
        List<String> soonestFirst = new ArrayList<>(ids);
        java.util.Collections.reverse(soonestFirst);
        assertEquals(soonestFirst, all("/items?state=scheduled&limit=2&q=" + prefix, pages));
        assertEquals(List.of(2, 2, 1), pages.stream().map(List::size).toList());
    }

    @Test
    void qFindsAnIdPrefixOrAReasonInAnyCase() {
        String prefix = SpoolFixture.uniqueId("searched");
        List<String> ids = enqueue(prefix, 4);
        given().when().delete("/items/{id}", ids.get(1)).then().statusCode(200);
        given().when().delete("/items/{id}", ids.get(2)).then().statusCode(200);
        assertEquals(List.of(ids.get(1), ids.get(2)), get("/items?state=failed&q=" + prefix).ids());
        List<String> cancelled = get("/items?state=failed&limit=10000&q=CANCEL").ids();
        assertTrue(cancelled.containsAll(List.of(ids.get(1), ids.get(2))), "by the reason 'cancelled': " + cancelled);
        assertEquals(List.of(ids.get(0), ids.get(3)), get("/items?state=pending&q=" + prefix).ids());
        assertEquals(List.of(), get("/items?state=pending&q=" + prefix + "-no-such").ids());
        assertEquals(List.of(), get("/items?state=pending&limit=10000&q=cancelled").ids().stream()
                .filter(id -> id.startsWith(prefix)).toList(), "pending items have no reason");
    }

    @Test
    void aCursorThatNoLinkGaveOrAnOverlongQIsA400NamingIt() {
        for (String bad : List.of("x", "123~", "1.5~a", "1.000000000~bad id", "1.000000000", "99999999999999999999.000000000~a")) {
            SpoolFixture.assertError(given().queryParam("after", bad).when().get("/items").then(), 400, "after must be the cursor");
        }
        SpoolFixture.assertError(given().queryParam("q", "x".repeat(201)).when().get("/items").then(), 400, "q must be at most 200");
        SpoolFixture.assertError(given().queryParam("q", "a\nb").when().get("/items").then(), 400, "q must be text on one line");
    }
}
