package dev.tala.compaction;

import dev.tala.segment.SegmentMeta;
import java.util.List;
import java.util.Optional;

/**
 * A leveled policy under TalaDB's constraint that only contiguous runs (in sequence order) may be
 * merged. Level 0 holds the newest flush segments, then level 1, level 2, ... each one sorted run
 * holding older data than the level above, with targets growing tenfold. When level 0 has
 * {@code level0Trigger} segments they merge with level 1 into a new level 1; when level n
 * outgrows its target it merges with level n+1 into a new level n+1. (Key-range-partial merges,
 * as in RocksDB's leveled compaction, would give outputs sequence ranges overlapping the segments
 * left behind, so whole levels merge instead.) The last level has no target.
 *
 * <p>Each merge rewrites the whole lower level, so a byte is rewritten about multiplier/2 times
 * per level: higher write amplification than size-tiered in exchange for fewer, larger runs.
 * It exists so the two can be compared by simulation ({@link AmplificationSimulator}) and later
 * by measurement.
 *
 * <p>Levels are size classes here: outputs get the level they merge into, which may equal the
 * deepest input's level (level 0 + level 1 gives level 1) rather than one above it.
 */
public final class LeveledPolicy implements CompactionPolicy {
    private final LeveledSettings settings;

    public LeveledPolicy(LeveledSettings settings) {
        this.settings = settings;
    }

    public static LeveledPolicy withDefaults() {
        return new LeveledPolicy(LeveledSettings.defaults());
    }

    public LeveledSettings settings() {
        return settings;
    }

    @Override
    public Optional<CompactionChoice> pick(List<SegmentMeta> liveNewestFirst) {
        List<SortedRun> runs = SortedRun.of(liveNewestFirst);
        int level0Runs = 0;
        while (level0Runs < runs.size() && runs.get(level0Runs).level() == 0) {
            level0Runs++;
        }
        // Highest score first, as RocksDB does; ties go to the shallower level, which feeds the deeper.
        double bestScore = 0;
        int bestLevel = -1;
        if (level0Runs >= settings.level0Trigger()) {
            bestScore = (double) level0Runs / settings.level0Trigger();
            bestLevel = 0;
        }
        for (int level = 1; level < settings.maxLevel(); level++) {
            int[] block = block(runs, level, 0);
            if (block == null) {
                continue;
            }
            long bytes = bytes(runs, block[0], block[1]);
            long target = settings.targetBytes(level);
            double score = (double) bytes / target;
            if (bytes > target && score > bestScore) {
                bestScore = score;
                bestLevel = level;
            }
        }
        if (bestLevel < 0) {
            return Optional.empty();
        }
        int from;
        int to;
        if (bestLevel == 0) {
            from = 0;
            to = level0Runs;
        } else {
            int[] block = block(runs, bestLevel, 0);
            from = block[0];
            to = block[1];
        }
        int outputLevel = Math.min(bestLevel + 1, settings.maxLevel());
        int[] next = block(runs, outputLevel, to);
        if (next != null && next[0] == to) {
            to = next[1]; // the level below joins, so the result stays one run per level
        }
        List<SegmentMeta> inputs = SortedRun.segmentsOf(runs, from, to);
        return Optional.of(new CompactionChoice(inputs, outputLevel, to == runs.size(),
                bestLevel == 0 ? CompactionChoice.Reason.LEVEL0_COUNT : CompactionChoice.Reason.LEVEL_SIZE));
    }

    /** Full compaction puts everything in the last level, where a leveled tree keeps its bulk. */
    @Override
    public Optional<CompactionChoice> full(List<SegmentMeta> liveNewestFirst) {
        return RunSelections.full(liveNewestFirst, settings.maxLevel())
                .map(c -> new CompactionChoice(c.inputs(), settings.maxLevel(), true, c.reason()));
    }

    /** [first, end) of the first block of consecutive runs at {@code level}, at or after {@code from}. */
    private static int[] block(List<SortedRun> runs, int level, int from) {
        int first = from;
        while (first < runs.size() && runs.get(first).level() != level) {
            first++;
        }
        if (first == runs.size()) {
            return null;
        }
        int end = first;
        while (end < runs.size() && runs.get(end).level() == level) {
            end++;
        }
        return new int[] {first, end};
    }

    private static long bytes(List<SortedRun> runs, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += runs.get(i).bytes();
        }
        return sum;
    }

    @Override
    public int maxLevel() {
        return settings.maxLevel();
    }

    @Override
    public String name() {
        return "leveled";
    }
}
