package dev.tala.compaction;

/**
 * Settings of the size-tiered policy.
 *
 * @param minMergeWidth fewest sorted runs merged at once (nothing happens below it)
 * @param maxMergeWidth most sorted runs merged at once
 * @param sizeRatio     an older run joins when its size is at most this times the candidate's so far
 * @param maxLevel      the level outputs are capped at
 * @param tombstoneRatio every run is merged once the tombstones in the runs newer than the oldest
 *                      reach this fraction of the oldest run's rows; 0 turns that off
 */
public record TieredSettings(int minMergeWidth, int maxMergeWidth, double sizeRatio, int maxLevel,
                             double tombstoneRatio) {
    public TieredSettings {
        if (minMergeWidth < 2) {
            throw new IllegalArgumentException("minMergeWidth must be at least 2, got " + minMergeWidth);
        }
        if (maxMergeWidth < minMergeWidth) {
            throw new IllegalArgumentException("maxMergeWidth " + maxMergeWidth + " is below minMergeWidth "
                    + minMergeWidth);
        }
        if (!(sizeRatio >= 1.0) || Double.isInfinite(sizeRatio)) {
            throw new IllegalArgumentException("sizeRatio must be a finite number >= 1, got " + sizeRatio);
        }
        if (maxLevel < 1 || maxLevel > 255) {
            throw new IllegalArgumentException("maxLevel must be within 1..255, got " + maxLevel);
        }
        if (!(tombstoneRatio >= 0) || Double.isInfinite(tombstoneRatio)) {
            throw new IllegalArgumentException("tombstoneRatio must be a finite number >= 0, got " + tombstoneRatio);
        }
    }

    public static TieredSettings defaults() {
        return new TieredSettings(CompactionDefaults.TIERED_MIN_MERGE_WIDTH, CompactionDefaults.TIERED_MAX_MERGE_WIDTH,
                CompactionDefaults.TIERED_SIZE_RATIO, CompactionDefaults.MAX_LEVEL,
                CompactionDefaults.TIERED_TOMBSTONE_RATIO);
    }
}
