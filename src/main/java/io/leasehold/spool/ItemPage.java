package io.leasehold.spool;

import java.util.List;
import java.util.Optional;

/**
 * One page of a listing ({@link ItemStore#page}): its items, and the cursor of the next page when more follow
 * (the API's {@code Link} header, the command line's {@code --after}).
 */
public record ItemPage(List<ItemView> items, Optional<String> next) {
}
