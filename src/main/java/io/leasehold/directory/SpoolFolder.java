package io.leasehold.directory;

import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.ItemState;

/** The folders under the spool directory. The first five are the protocol's (docs/protocol.md, Folders); the rest are bookkeeping. */
public enum SpoolFolder {
    /** Payloads being written; never read as items. Stale files are removed. */
    TMP("tmp"),
    /** Items waiting, named by id. */
    PENDING("pending"),
    /** Items held, named {@code <id>~<generation>~<reading>}. */
    CLAIMED("claimed"),
    DONE("done"),
    FAILED("failed"),
    /** Reservations of known ids, named by id: the inode of the item's payload, from enqueue until purge. */
    IDS("ids"),
    /** Per claim: {@code <id>/<generation>}, what that claim recorded about its attempt ({@link AttemptRecord}). */
    ATTEMPTS("attempts"),
    /** Spools written before {@code attempts/} kept why an item last failed here, by id; still read, never written. */
    REASONS("reasons"),
    /** Per recurring schedule: its mark, {@code <name>~<fire time>}, and a pause by hand, {@code <name>~pause}. */
    SCHEDULES("schedules"),
    /** The fleet's switches by hand: {@code drain~pause}, the drain's pause ({@link DirectoryDrainSwitch}). */
    CONTROL("control"),
    /** Per item: {@code <id>/<attempt>}, the output of its latest attempts ({@link DirectoryOutputs}). */
    OUTPUTS("outputs");

    private final String dirName;

    SpoolFolder(String dirName) {
        this.dirName = dirName;
    }

    /** The folder an item in {@code state} lives in. */
    static SpoolFolder of(ItemState state) {
        return switch (state) {
            case PENDING -> PENDING;
            case CLAIMED -> CLAIMED;
            case DONE -> DONE;
            case FAILED -> FAILED;
        };
    }

    public String dirName() {
        return dirName;
    }
}
