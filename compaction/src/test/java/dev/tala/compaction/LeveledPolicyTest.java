package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeveledPolicyTest {
    /** L0 trigger 4, level 1 target 40 bytes, tenfold per level, last level 4. */
    private final LeveledPolicy policy = new LeveledPolicy(new LeveledSettings(4, 40, 10, 4));

    @Test
    void levelZeroMergesIntoLevelOneAtTheTrigger() {
        assertTrue(policy.pick(Metas.of(new long[] {10, 10, 10, 30}, new int[] {0, 0, 0, 1})).isEmpty());
        CompactionChoice c = policy.pick(Metas.of(new long[] {10, 10, 10, 10, 30, 300},
                new int[] {0, 0, 0, 0, 1, 2})).orElseThrow();
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), c.inputIds(), "level 0 and the level 1 below it");
        assertEquals(1, c.outputLevel());
        assertFalse(c.bottommost());
        assertEquals(CompactionChoice.Reason.LEVEL0_COUNT, c.reason());
    }

    @Test
    void anOversizedLevelMergesIntoTheNext() {
        // Level 1 holds 50 > 40: it merges with level 2 into level 2.
        CompactionChoice c = policy.pick(Metas.of(new long[] {10, 50, 300}, new int[] {0, 1, 2})).orElseThrow();
        assertEquals(List.of(2L, 3L), c.inputIds());
        assertEquals(2, c.outputLevel());
        assertTrue(c.bottommost());
        assertEquals(CompactionChoice.Reason.LEVEL_SIZE, c.reason());
    }

    @Test
    void theMostOversizedLevelGoesFirst() {
        // L1: 60/40 = 1.5; L2: 1000/400 = 2.5 wins.
        CompactionChoice c = policy.pick(Metas.of(new long[] {60, 1000, 5000}, new int[] {1, 2, 3})).orElseThrow();
        assertEquals(List.of(2L, 3L), c.inputIds());
        assertEquals(3, c.outputLevel());
    }

    @Test
    void theLastLevelOnlyGrows() {
        assertTrue(policy.pick(Metas.of(new long[] {10, 1_000_000}, new int[] {0, 4})).isEmpty());
    }

    @Test
    void aMissingNextLevelIsNotSkipped() {
        // Level 1 is too big and level 2 does not exist: level 1 moves down alone, ahead of level 3.
        CompactionChoice c = policy.pick(Metas.of(new long[] {50, 3000}, new int[] {1, 3})).orElseThrow();
        assertEquals(List.of(1L), c.inputIds());
        assertEquals(2, c.outputLevel());
    }

    @Test
    void fullCompactionGoesToTheLastLevel() {
        CompactionChoice c = policy.full(Metas.of(new long[] {10, 20}, new int[] {0, 1})).orElseThrow();
        assertEquals(4, c.outputLevel());
        assertTrue(c.bottommost());
    }
}
