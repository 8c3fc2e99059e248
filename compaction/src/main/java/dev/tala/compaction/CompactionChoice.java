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
        /** Size-tiered: the newer runs hold many tombstones for the size of the oldest. */
        TOMBSTONES,
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

    /**
     * Refuses this choice unless it is one the engine can run over {@code liveNewestFirst}
     * without changing what any read returns: live inputs, described as the live list describes
     * them and listed as a contiguous slice of it (newest first), made of whole
     * {@link SortedRun}s, and bottommost only if it
     * reaches the oldest live segment. The built-in policies choose only such runs; a custom one
     * that does not would, run as chosen, bring deleted intents back (a tombstone dropped while an
     * older segment still held the intent) or let an older version shadow a newer one.
     *
     * @param policy the policy's name, for the error
     * @throws IllegalStateException naming the policy and the inputs, if the choice is refused
     */
    public void requireRunnableOver(List<SegmentMeta> liveNewestFirst, String policy) {
        List<Long> live = liveNewestFirst.stream().map(SegmentMeta::id).toList();
        int first = live.indexOf(inputs.getFirst().id());
        if (first < 0) {
            throw refused(policy, "segment " + inputs.getFirst().id() + " is not live", live);
        }
        int end = first + inputs.size();
        if (end > live.size() || !live.subList(first, end).equals(inputIds())) {
            throw refused(policy, "they are not a contiguous run of the live segments, newest first", live);
        }
        for (int i = 0; i < inputs.size(); i++) {
            // A move records the inputs as given: a stale description (a list from before an
            // earlier compaction) would go into the MANIFEST, and scans would skip by its times.
            if (!inputs.get(i).equals(liveNewestFirst.get(first + i))) {
                throw refused(policy, "segment " + inputs.get(i).id() + " is described otherwise than the live one ("
                        + inputs.get(i) + " against " + liveNewestFirst.get(first + i) + ")", live);
            }
        }
        boolean startsARun = false;
        boolean endsARun = false;
        for (SortedRun run : SortedRun.of(liveNewestFirst)) {
            startsARun |= run.first() == first;
            endsARun |= run.end() == end;
        }
        if (!startsARun || !endsARun) {
            throw refused(policy, "they split a sorted run (segments whose sequence ranges overlap)", live);
        }
        if (bottommost && end != live.size()) {
            throw refused(policy, "the choice is marked bottommost but leaves out the oldest segment, "
                    + live.getLast() + ", which may hold older versions of their ids", live);
        }
    }

    private IllegalStateException refused(String policy, String why, List<Long> live) {
        return new IllegalStateException("compaction policy '" + policy + "' chose segments " + inputIds() + ": " + why
                + " (live segments, newest first: " + live + "); nothing was compacted");
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
