package dev.tala.compaction;

import dev.tala.segment.SegmentMeta;
import java.util.List;
import java.util.Optional;

/**
 * Size-tiered ("universal") compaction over sorted runs in newest-first order.
 *
 * <p>Starting at the newest run, a candidate grows by the next older run while that run is at
 * most {@code sizeRatio} times the candidate's accumulated size, up to {@code maxMergeWidth}
 * runs. If the candidate reaches {@code minMergeWidth} runs it is chosen; otherwise the search
 * starts again one run older. With equal flushes this merges 4 flushes into one run, and a run
 * joins older runs once the newer data has grown to a comparable size, so every byte is
 * rewritten about once per doubling of the data: write amplification grows with the logarithm
 * of the data size, and each merge only reads what it writes.
 *
 * <p>Why it suits intents: ids are time-ordered and mostly appended, so runs barely overlap in
 * ids and there is little to gain from rewriting an old run to fold in a few updates; a leveled
 * policy would keep rewriting the big old level for that. Outputs get
 * {@link CompactionChoice#levelAbove one level above their deepest input}; the level is a label
 * here (it records how often data was merged), not a size class.
 */
public final class TieredPolicy implements CompactionPolicy {
    private final TieredSettings settings;

    public TieredPolicy(TieredSettings settings) {
        this.settings = settings;
    }

    public static TieredPolicy withDefaults() {
        return new TieredPolicy(TieredSettings.defaults());
    }

    public TieredSettings settings() {
        return settings;
    }

    @Override
    public Optional<CompactionChoice> pick(List<SegmentMeta> liveNewestFirst) {
        List<SortedRun> runs = SortedRun.of(liveNewestFirst);
        if (tombstonesOutweighTheOldestRun(runs)) {
            return Optional.of(new CompactionChoice(liveNewestFirst,
                    CompactionChoice.levelAbove(liveNewestFirst, settings.maxLevel()), true,
                    CompactionChoice.Reason.TOMBSTONES));
        }
        for (int start = 0; start + settings.minMergeWidth() <= runs.size(); start++) {
            double accumulated = runs.get(start).bytes();
            int end = start + 1;
            while (end < runs.size() && end - start < settings.maxMergeWidth()
                    && runs.get(end).bytes() <= accumulated * settings.sizeRatio()) {
                accumulated += runs.get(end).bytes();
                end++;
            }
            if (end - start >= settings.minMergeWidth()) {
                List<SegmentMeta> inputs = SortedRun.segmentsOf(runs, start, end);
                return Optional.of(new CompactionChoice(inputs,
                        CompactionChoice.levelAbove(inputs, settings.maxLevel()), end == runs.size(),
                        CompactionChoice.Reason.SIZE_RATIO));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the newer runs hold enough tombstones, against the oldest run's rows, that a merge
     * of everything is due. A tombstone whose row is in the oldest run goes only in a merge that
     * reaches that run, and with it the row it hides (one whose id no segment outside a younger
     * merge holds goes there, and is no longer counted: {@link OlderVersions}); the size ratio
     * reaches the oldest run only as the data grows. The oldest run's own tombstones do not
     * count: nothing older is left for them to hide (they are there only while the oldest run is
     * a flush that was never merged), and counting them would ask for a merge that cannot
     * reclaim anything.
     */
    private boolean tombstonesOutweighTheOldestRun(List<SortedRun> runs) {
        if (settings.tombstoneRatio() == 0 || runs.size() < 2) {
            return false;
        }
        long newerTombstones = 0;
        for (int i = 0; i < runs.size() - 1; i++) {
            newerTombstones += runs.get(i).tombstones();
        }
        return newerTombstones > 0 && newerTombstones >= settings.tombstoneRatio() * runs.getLast().rows();
    }

    @Override
    public int maxLevel() {
        return settings.maxLevel();
    }

    @Override
    public String name() {
        return "tiered";
    }
}
