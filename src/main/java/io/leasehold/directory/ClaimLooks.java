package io.leasehold.directory;

import io.leasehold.core.ClaimName;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.RunningClaims;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Brings {@link RunningClaims} up to a recount's listing of claimed/. Whether a claim is parked only its
 * record says, and a claim is parked or unparked only by a rename: so the record is read once per name
 * first listed (a held claim's renewals, a parked claim never), on the census's thread, never by a scrape.
 * Junk under a claim's name (a directory, a link, a FIFO) runs nothing and is never renamed, settled or
 * taken over: it is left out, checked once per name with the spool's own junk check.
 */
final class ClaimLooks {

    private static final Logger LOG = Logger.getLogger(ClaimLooks.class);

    /** What the spool says of one claim's file and record. */
    interface Reader {
        /** The spool's own junk check ({@link PosixSpool#isJunk}). */
        boolean junk(ClaimName claim) throws IOException;

        /** What the claim's own record says it is: {@code NOTE} when it has none. */
        AttemptRecord.Kind kind(ClaimName claim) throws IOException;
    }

    /** How a name of the listing was found: kept per name, since only a rename changes it. */
    private enum Look { RUNNING, SCHEDULED, RETRYING, JUNK }

    private final Reader reader;
    private final RunningClaims running;
    private Map<String, Look> lookByName = Map.of();
    /** Names whose record could not be read, said once each (not cached: the next recount reads again). */
    private Set<String> unreadable = Set.of();

    ClaimLooks(AttemptRecords records, PosixSpool spool, RunningClaims running) {
        this(new Reader() {
            @Override
            public boolean junk(ClaimName claim) throws IOException {
                return spool.isJunk(claim);
            }

            @Override
            public AttemptRecord.Kind kind(ClaimName claim) throws IOException {
                return records.read(claim.id(), claim.generation()).map(AttemptRecord::kind)
                        .orElse(AttemptRecord.Kind.NOTE);
            }
        }, running);
    }

    ClaimLooks(Reader reader, RunningClaims running) {
        this.reader = reader;
        this.running = running;
    }

    /** {@code claims} is all claimed/ held at one listing; answers the parked ones among them, by id. */
    Map<String, ParkedClaims.Parked> listed(List<ClaimName> claims) {
        Map<String, ParkedClaims.Parked> parked = new HashMap<>();
        Map<String, Look> seen = new HashMap<>();
        Set<String> runningIds = new HashSet<>();
        Set<String> stillUnreadable = new HashSet<>();
        for (ClaimName claim : claims) {
            Look look = lookByName.get(claim.fileName());
            if (look == null) {
                look = lookAt(claim, stillUnreadable);
            }
            if (look != null) {
                seen.put(claim.fileName(), look);
            }
            if (look == null || look == Look.RUNNING) {
                running.running(claim); // unreadable: a held claim may be stuck, so it counts
                runningIds.add(claim.id());
            } else if (look == Look.SCHEDULED || look == Look.RETRYING) {
                parked.put(claim.id(), new ParkedClaims.Parked(claim.generation(),
                        look == Look.SCHEDULED ? AttemptRecord.Kind.SCHEDULED : AttemptRecord.Kind.RETRY));
            }
        }
        running.retainOnly(runningIds);
        lookByName = seen;
        unreadable = stillUnreadable;
        return parked;
    }

    /** The claim's look, or null when its record could not be read (one claim never stops a recount). */
    private Look lookAt(ClaimName claim, Set<String> stillUnreadable) {
        try {
            if (reader.junk(claim)) {
                return Look.JUNK;
            }
            return switch (reader.kind(claim)) {
                case SCHEDULED -> Look.SCHEDULED;
                case RETRY -> Look.RETRYING;
                default -> Look.RUNNING;
            };
        } catch (IOException | RuntimeException e) {
            stillUnreadable.add(claim.fileName());
            if (!unreadable.contains(claim.fileName())) {
                LOG.warnf("could not read the record of claim %s, counted as running until it can be read: %s",
                        claim.fileName(), e.toString());
            }
            return null;
        }
    }
}
