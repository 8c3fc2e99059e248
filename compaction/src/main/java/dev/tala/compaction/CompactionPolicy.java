package dev.tala.compaction;

import dev.tala.segment.SegmentMeta;
import java.util.List;
import java.util.Optional;

/**
 * Decides what to compact. Every choice is a contiguous run of the live segments in newest-first
 * order, made of whole {@link SortedRun}s, so outputs keep sequence ranges disjoint from the
 * segments left alone. Policies are pure functions of the live list: the engine calls
 * {@link #pick} after each flush and each compaction until it returns empty.
 */
public interface CompactionPolicy {
    /** The next compaction to run, or empty when the shape of the live set is acceptable. */
    Optional<CompactionChoice> pick(List<SegmentMeta> liveNewestFirst);

    /** The level outputs are capped at. */
    int maxLevel();

    /** A short name for reports ("tiered", "leveled"). */
    String name();

    /** Everything into one sorted run, bottommost (tombstones go); empty if there is nothing live. */
    default Optional<CompactionChoice> full(List<SegmentMeta> liveNewestFirst) {
        return RunSelections.full(liveNewestFirst, maxLevel());
    }

    /**
     * The smallest contiguous run covering every segment whose time range overlaps
     * {@code [fromNs, toNs)}; bottommost only if it reaches the oldest segment.
     */
    default Optional<CompactionChoice> overlapping(List<SegmentMeta> liveNewestFirst, long fromNs, long toNs) {
        return RunSelections.overlapping(liveNewestFirst, fromNs, toNs, maxLevel());
    }
}
