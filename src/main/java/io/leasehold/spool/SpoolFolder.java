package io.leasehold.spool;

/** The folders under the spool directory. The first five are the contract; reasons/ is bookkeeping. */
public enum SpoolFolder {
    /** Payloads being written; never read as items. Stale files are removed. */
    TMP("tmp"),
    /** Items waiting, named by id. */
    PENDING("pending"),
    /** Items held, named {@code <id>~<generation>~<reading>}. */
    CLAIMED("claimed"),
    DONE("done"),
    FAILED("failed"),
    /** Why an item failed or was last retried, named by id; first line is the attempt it belongs to. */
    REASONS("reasons");

    private final String dirName;

    SpoolFolder(String dirName) {
        this.dirName = dirName;
    }

    public String dirName() {
        return dirName;
    }
}
