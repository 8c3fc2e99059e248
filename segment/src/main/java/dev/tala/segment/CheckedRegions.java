package dev.tala.segment;

import dev.tala.segment.format.RegionKind;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link CheckedRegion} for every entry of a segment's footer directory: the known kinds, which
 * the reader serves, and the kinds of newer minor versions, which it never serves but which
 * {@link SegmentOpenOption#VERIFY_ALL} still checks.
 */
final class CheckedRegions {
    private final Map<RegionKind, CheckedRegion> known = new EnumMap<>(RegionKind.class);
    private final List<CheckedRegion> inFileOrder = new ArrayList<>();

    CheckedRegions(MemorySegment data, RegionDirectory directory, String file) {
        for (RegionEntry entry : directory.entriesByOffset()) {
            RegionKind kind = entry.knownKind();
            String name = kind == null ? entry.describe() : kind.label() + " region";
            CheckedRegion region = new CheckedRegion(data, entry, name, file);
            inFileOrder.add(region);
            if (kind != null) {
                known.put(kind, region);
            }
        }
    }

    /** The region of a known kind; null only for CSC when the segment has no reverse edges. */
    CheckedRegion get(RegionKind kind) {
        return known.get(kind);
    }

    /**
     * Checks every region now, in file order.
     *
     * @throws dev.tala.core.error.CorruptionException for the first damaged region
     */
    void verifyAll() {
        for (CheckedRegion region : inFileOrder) {
            region.verify();
        }
    }
}
