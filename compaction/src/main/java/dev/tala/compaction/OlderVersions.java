package dev.tala.compaction;

import dev.tala.core.model.IntentId;
import dev.tala.segment.SegmentReader;
import java.util.List;

/**
 * Whether a live segment outside a merge may hold a version of an id: what decides whether a
 * tombstone the merge is about to write still hides anything. A tombstone exists only to hide
 * older versions in segments outside the merge; where no such segment may hold its id, the
 * merge drops it, bottommost or not. (Cassandra purges tombstones the same way, asking the bloom
 * filters of the sstables outside the compaction.)
 *
 * <p>Without this, a tombstone outlived the row it deleted whenever the two met in a merge that
 * was not bottommost: it was carried from run to run and counted toward the size-tiered policy's
 * tombstone check (docs/COMPACTION.md), which then merged everything for tombstones that hid
 * nothing.
 */
@FunctionalInterface
public interface OlderVersions {
    /** No segment outside the merge is older than its inputs: every tombstone goes (bottommost). */
    OlderVersions NONE = id -> false;

    /** Nothing is known about the segments outside the merge: every tombstone stays. */
    OlderVersions UNKNOWN = id -> true;

    /**
     * Whether some live segment outside the merge may hold a version of {@code id}. False must
     * be certain; true may be wrong.
     */
    boolean mayHold(IntentId id);

    /**
     * Asks the bloom filters of {@code outside}, every live segment that is not an input of the
     * merge (newer ones too: a newer segment holding the id only keeps a tombstone that could
     * have gone). Their readers must stay open while the merge runs.
     */
    static OlderVersions inSegments(List<SegmentReader> outside) {
        List<SegmentReader> segments = List.copyOf(outside);
        if (segments.isEmpty()) {
            return NONE;
        }
        return id -> {
            for (SegmentReader s : segments) {
                if (s.bloomFilter().mightContain(id)) {
                    return true;
                }
            }
            return false;
        };
    }
}
