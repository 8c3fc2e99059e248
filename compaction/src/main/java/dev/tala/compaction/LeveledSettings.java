package dev.tala.compaction;

/**
 * Settings of the leveled policy.
 *
 * @param level0Trigger   flush segments in level 0 that trigger a merge into level 1
 * @param baseLevelBytes  target size of level 1
 * @param sizeMultiplier  each level's target is this times the previous level's
 * @param maxLevel        the last level, which has no target and only grows
 */
public record LeveledSettings(int level0Trigger, long baseLevelBytes, int sizeMultiplier, int maxLevel) {
    public LeveledSettings {
        if (level0Trigger < 1) {
            throw new IllegalArgumentException("level0Trigger must be at least 1, got " + level0Trigger);
        }
        if (baseLevelBytes <= 0) {
            throw new IllegalArgumentException("baseLevelBytes must be positive, got " + baseLevelBytes);
        }
        if (sizeMultiplier < 2) {
            throw new IllegalArgumentException("sizeMultiplier must be at least 2, got " + sizeMultiplier);
        }
        if (maxLevel < 1 || maxLevel > 255) {
            throw new IllegalArgumentException("maxLevel must be within 1..255, got " + maxLevel);
        }
    }

    public static LeveledSettings defaults() {
        return new LeveledSettings(CompactionDefaults.LEVELED_L0_TRIGGER, CompactionDefaults.LEVELED_BASE_BYTES,
                CompactionDefaults.LEVELED_SIZE_MULTIPLIER, CompactionDefaults.MAX_LEVEL);
    }

    /** Target size of {@code level} (1 .. maxLevel-1): base * multiplier^(level-1), saturating. */
    public long targetBytes(int level) {
        double target = baseLevelBytes * Math.pow(sizeMultiplier, level - 1);
        return target >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) target;
    }
}
