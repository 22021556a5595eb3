package io.leasehold.spool;

import io.leasehold.core.ItemId;
import java.util.HashMap;
import java.util.Map;

/**
 * The rules a batch keeps of its lines, whatever stores it: one payload open at a time, every id by the
 * grammar and on one line only (a second line with it refuses the batch, naming both lines).
 */
public final class BatchLines {

    private final Map<String, Integer> lines = new HashMap<>();
    private boolean open;

    /** The payload of {@code line} begins; {@code id} when the line named it before its payload, else null. */
    public void opening(int line, String id) {
        if (open) {
            throw new IllegalStateException("the payload of line " + line + " while another is open");
        }
        if (id != null) {
            admit(line, id);
        }
        open = true;
    }

    /** The line is read whole. */
    public void closing(int line) {
        if (!open) {
            throw new IllegalStateException("line " + line + " has no payload");
        }
        open = false;
    }

    /** {@code id} is the item of {@code line}. */
    public void admit(int line, String id) {
        ItemId.require(id);
        Integer before = lines.putIfAbsent(id, line);
        if (before != null) {
            throw new IllegalArgumentException("id '" + id + "' is on line " + before + " of the batch already");
        }
    }
}
