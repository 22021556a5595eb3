package io.leasehold.api;

import io.leasehold.core.ItemId;
import java.util.Set;

/**
 * The ids the API takes for a new item: the grammar's, less the words of its own paths under {@code /items}.
 * {@code /items/batch} and {@code /items/retry} are the paths of the batch and bulk-retry calls, which take
 * precedence over {@code /items/{id}} by the JAX-RS rules ({@code GET /items/batch} is answered 405 by the
 * batch call), so an item so named could be enqueued but not reliably read or cancelled: such an id is
 * refused with a 400 instead. A file of that name dropped into the spool still drains.
 */
final class AddressableIds {

    static final Set<String> PATH_WORDS = Set.of("batch", "retry");

    private AddressableIds() {
    }

    /** Returns the id, or throws (a 400) naming the rule and the fix. */
    static String require(String id) {
        ItemId.require(id);
        if (PATH_WORDS.contains(id)) {
            throw new IllegalArgumentException("the id '" + id + "' is the name of the call /items/" + id
                    + ", so /items/" + id + " is not an item's address: choose another id");
        }
        return id;
    }
}
