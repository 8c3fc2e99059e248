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

    /**
     * From a mutation audit: level 0 scores its run count over the trigger, so eight flushes
     * (score 2) go ahead of a level 1 at 1.5 times its target; scored as 1 they would wait.
     */
    @Test
    void levelZeroScoresByHowFarItIsPastTheTrigger() {
        CompactionChoice c = policy.pick(Metas.of(new long[] {10, 10, 10, 10, 10, 10, 10, 10, 60, 300},
                new int[] {0, 0, 0, 0, 0, 0, 0, 0, 1, 2})).orElseThrow();
        assertEquals(Metas.range(1, 9), c.inputIds(), "level 0 and level 1");
        assertEquals(CompactionChoice.Reason.LEVEL0_COUNT, c.reason());
    }

    /** From a mutation audit: ties go to the shallower level, which feeds the deeper. */
    @Test
    void aTieGoesToTheShallowerLevel() {
        // L1: 60/40 = 1.5; L2: 600/400 = 1.5; L3: 1000/4000 is within its target.
        CompactionChoice c = policy.pick(Metas.of(new long[] {60, 600, 1000}, new int[] {1, 2, 3})).orElseThrow();
        assertEquals(List.of(1L, 2L), c.inputIds());
        assertEquals(2, c.outputLevel());
    }

    /**
     * From a mutation audit: the next level joins only where it starts right below the merged
     * one. Here (levels labelled by another policy before a switch) level 3 sits between them:
     * level 1 moves down alone, and the level 3 and level 2 runs stay where they are.
     */
    @Test
    void aNextLevelFurtherDownDoesNotJoin() {
        CompactionChoice c = policy.pick(Metas.of(new long[] {50, 3000, 300}, new int[] {1, 3, 2})).orElseThrow();
        assertEquals(List.of(1L), c.inputIds());
        assertEquals(2, c.outputLevel());
        assertFalse(c.bottommost());
    }

    @Test
    void fullCompactionGoesToTheLastLevel() {
        CompactionChoice c = policy.full(Metas.of(new long[] {10, 20}, new int[] {0, 1})).orElseThrow();
        assertEquals(4, c.outputLevel());
        assertTrue(c.bottommost());
    }
}
