package dev.tala.compaction;

import dev.tala.segment.SegmentMeta;
import java.util.List;

/**
 * A compaction a policy asks for: a contiguous run of live segments (newest first), the level
 * its outputs get, and whether it is bottommost (it includes the oldest live segment, so nothing
 * older can hold its ids and tombstones can be dropped).
 */
public record CompactionChoice(List<SegmentMeta> inputs, int outputLevel, boolean bottommost, Reason reason) {
    /** Why the run was picked, for logs and the {@code tala compact} output. */
    public enum Reason {
        /** Size-tiered: enough sorted runs of similar size. */
        SIZE_RATIO,
        /** Leveled: too many flush segments in level 0. */
        LEVEL0_COUNT,
        /** Leveled: a level outgrew its target size. */
        LEVEL_SIZE,
        /** Everything, on request. */
        FULL,
        /** The segments overlapping a time range, on request. */
        TIME_RANGE
    }

    public CompactionChoice {
        inputs = List.copyOf(inputs);
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("a compaction needs at least one input");
        }
        if (outputLevel < 0 || outputLevel > 255) {
            throw new IllegalArgumentException("output level must be within 0..255, got " + outputLevel);
        }
    }

    public List<Long> inputIds() {
        return inputs.stream().map(SegmentMeta::id).toList();
    }

    public long inputBytes() {
        return inputs.stream().mapToLong(SegmentMeta::fileSize).sum();
    }

    public long inputRows() {
        return inputs.stream().mapToLong(SegmentMeta::rows).sum();
    }

    /** The level outputs get when merging {@code inputs}: one above the deepest input, capped. */
    public static int levelAbove(List<SegmentMeta> inputs, int maxLevel) {
        int deepest = 0;
        for (SegmentMeta m : inputs) {
            deepest = Math.max(deepest, m.level());
        }
        return Math.min(deepest + 1, maxLevel);
    }
}
