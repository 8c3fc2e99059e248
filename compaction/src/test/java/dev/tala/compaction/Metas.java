package dev.tala.compaction;

import dev.tala.segment.SegmentMeta;
import java.util.ArrayList;
import java.util.List;

/** Builds live-segment lists for policy tests: newest first, disjoint sequence ranges. */
final class Metas {
    private Metas() {
    }

    /**
     * Flush-like segments with the given sizes (newest first) and levels; segment i covers
     * sequence numbers and timestamps [100 * (n - i), 100 * (n - i) + 99].
     */
    static List<SegmentMeta> of(long[] sizesNewestFirst, int[] levels) {
        List<SegmentMeta> out = new ArrayList<>();
        int n = sizesNewestFirst.length;
        for (int i = 0; i < n; i++) {
            long lo = 100L * (n - i);
            out.add(new SegmentMeta(i + 1, levels[i], sizesNewestFirst[i], 10, 0, lo, lo + 99, lo, lo + 99,
                    levels[i] > 0));
        }
        return out;
    }

    static List<SegmentMeta> sizes(long... sizesNewestFirst) {
        return of(sizesNewestFirst, new int[sizesNewestFirst.length]);
    }

    static List<Long> ids(CompactionChoice c) {
        return c.inputIds();
    }

    static List<Long> range(long fromInclusive, long toInclusive) {
        List<Long> out = new ArrayList<>();
        for (long i = fromInclusive; i <= toInclusive; i++) {
            out.add(i);
        }
        return out;
    }
}
