package io.leasehold.directory;

import io.leasehold.core.ItemId;
import io.leasehold.spool.Anomaly;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import org.jboss.logging.Logger;

/**
 * Entries found in the spool that are not items. Each is logged once when first seen, listed by the
 * API, and skipped by scans, so one bad file never stalls the drain or crashes a scan.
 */
public final class SpoolAnomalies {

    private static final Logger LOG = Logger.getLogger(SpoolAnomalies.class);
    /** Bounds memory when someone drops a flood of junk; the scan still skips junk by its name. */
    private static final int MAX_KEPT = 1000;

    private final Map<String, Anomaly> known = new ConcurrentHashMap<>();

    public void report(SpoolFolder folder, String name, String problem, Instant now) {
        String key = key(folder, name);
        if (known.containsKey(key) || known.size() >= MAX_KEPT) {
            return;
        }
        if (known.putIfAbsent(key, new Anomaly(folder.dirName(), ItemId.printable(name), problem, now)) == null) {
            LOG.warnf("left alone: %s/%s (%s)", folder.dirName(), ItemId.printable(name), problem);
        }
    }

    public boolean isKnown(SpoolFolder folder, String name) {
        return known.containsKey(key(folder, name));
    }

    /** The entry is fine now (junk replaced by a real item): no longer reported. */
    public void forget(SpoolFolder folder, String name) {
        known.remove(key(folder, name));
    }

    /** Drops the entries for which {@code stillBad(folder, name)} no longer holds (fixed or removed). */
    public void recheck(BiPredicate<SpoolFolder, String> stillBad) {
        known.entrySet().removeIf(e -> {
            String[] parts = e.getKey().split("/", 2);
            return !stillBad.test(SpoolFolder.valueOf(parts[0]), parts[1]);
        });
    }

    public List<Anomaly> list() {
        List<Anomaly> out = new ArrayList<>(known.values());
        out.sort(Comparator.comparing(Anomaly::firstSeen).thenComparing(Anomaly::name));
        return out;
    }

    private static String key(SpoolFolder folder, String name) {
        return folder.name() + "/" + name;
    }
}
