package dev.tala.compaction;

import dev.tala.segment.SegmentMeta;
import java.util.List;
import java.util.Optional;

/** The compactions an operator asks for (full, or a time range), whatever the automatic policy. */
public final class RunSelections {
    private RunSelections() {
    }

    public static Optional<CompactionChoice> full(List<SegmentMeta> liveNewestFirst, int maxLevel) {
        List<SortedRun> runs = SortedRun.of(liveNewestFirst);
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        List<SegmentMeta> inputs = SortedRun.segmentsOf(runs, 0, runs.size());
        return Optional.of(new CompactionChoice(inputs, CompactionChoice.levelAbove(inputs, maxLevel), true,
                CompactionChoice.Reason.FULL));
    }

    /**
     * A segment overlaps when {@code minTimestamp < toNs && maxTimestamp >= fromNs}. Segments in
     * between that do not overlap are included too: the run must be contiguous. (A segment of
     * tombstones only has the time range 0..0 in its metadata.)
     */
    public static Optional<CompactionChoice> overlapping(List<SegmentMeta> liveNewestFirst, long fromNs, long toNs,
            int maxLevel) {
        if (fromNs >= toNs) {
            throw new IllegalArgumentException("empty time range [" + fromNs + ", " + toNs + ")");
        }
        List<SortedRun> runs = SortedRun.of(liveNewestFirst);
        int first = -1;
        int last = -1;
        for (int i = 0; i < runs.size(); i++) {
            for (SegmentMeta m : runs.get(i).segments()) {
                if (m.rows() > 0 && m.minTimestamp() < toNs && m.maxTimestamp() >= fromNs) {
                    if (first < 0) {
                        first = i;
                    }
                    last = i;
                }
            }
        }
        if (first < 0) {
            return Optional.empty();
        }
        List<SegmentMeta> inputs = SortedRun.segmentsOf(runs, first, last + 1);
        boolean bottommost = last == runs.size() - 1;
        return Optional.of(new CompactionChoice(inputs, CompactionChoice.levelAbove(inputs, maxLevel), bottommost,
                CompactionChoice.Reason.TIME_RANGE));
    }
}
