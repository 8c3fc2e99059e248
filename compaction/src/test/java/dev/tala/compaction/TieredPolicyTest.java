package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.segment.SegmentMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TieredPolicyTest {
    private final TieredPolicy policy = new TieredPolicy(new TieredSettings(4, 16, 1.5, 6));

    @Test
    void nothingHappensBelowTheMinimumWidth() {
        assertTrue(policy.pick(List.of()).isEmpty());
        assertTrue(policy.pick(Metas.sizes(10, 10, 10)).isEmpty());
    }

    @Test
    void theMinimumWidthOfSimilarRunsTriggers() {
        CompactionChoice c = policy.pick(Metas.sizes(10, 10, 10, 10)).orElseThrow();
        assertEquals(List.of(1L, 2L, 3L, 4L), c.inputIds());
        assertTrue(c.bottommost(), "the run includes the oldest segment");
        assertEquals(1, c.outputLevel());
        assertEquals(CompactionChoice.Reason.SIZE_RATIO, c.reason());
    }

    @Test
    void aMuchLargerOlderRunIsLeftAlone() {
        // 4 flushes of 10 accumulate 40; 100 > 40 * 1.5, so the old run stays.
        CompactionChoice c = policy.pick(Metas.sizes(10, 10, 10, 10, 100)).orElseThrow();
        assertEquals(List.of(1L, 2L, 3L, 4L), c.inputIds());
        assertFalse(c.bottommost());
    }

    @Test
    void anOlderRunWithinTheSizeRatioJoins() {
        // 40 accumulated; 60 <= 40 * 1.5 joins; then 100 accumulated and 151 > 150 stays.
        CompactionChoice c = policy.pick(Metas.sizes(10, 10, 10, 10, 60, 151)).orElseThrow();
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), c.inputIds());
        assertFalse(c.bottommost());
    }

    @Test
    void theWidthIsCappedAtTheMaximum() {
        long[] sizes = new long[20];
        java.util.Arrays.fill(sizes, 10);
        CompactionChoice c = policy.pick(Metas.sizes(sizes)).orElseThrow();
        assertEquals(Metas.range(1, 16), c.inputIds(), "the 16 newest");
        assertFalse(c.bottommost());
    }

    @Test
    void aLaterStartIsTriedWhenTheNewestRunsCannotMerge() {
        // 1 then four runs of 20: the newest can't grow (20 > 1.5), the next four can.
        CompactionChoice c = policy.pick(Metas.sizes(1, 20, 20, 20, 20)).orElseThrow();
        assertEquals(List.of(2L, 3L, 4L, 5L), c.inputIds());
        assertTrue(c.bottommost());
    }

    @Test
    void theOutputLevelIsOneAboveTheDeepestInputCapped() {
        CompactionChoice c = policy.pick(Metas.of(new long[] {10, 10, 10, 10}, new int[] {0, 0, 2, 1}))
                .orElseThrow();
        assertEquals(3, c.outputLevel());
        CompactionChoice capped = policy.pick(Metas.of(new long[] {10, 10, 10, 10}, new int[] {0, 0, 6, 6}))
                .orElseThrow();
        assertEquals(6, capped.outputLevel());
    }

    @Test
    void siblingOutputsOfOneCompactionAreNeverSplit() {
        // Segments 2..4 are the outputs of one earlier compaction: overlapping sequence ranges
        // (their ids are disjoint). Together they are one sorted run of 30.
        List<SegmentMeta> live = new ArrayList<>();
        live.add(new SegmentMeta(1, 0, 10, 10, 900, 999, 900, 999, false));
        live.add(new SegmentMeta(2, 1, 10, 10, 100, 899, 150, 899, true));
        live.add(new SegmentMeta(3, 1, 10, 10, 100, 899, 100, 880, true));
        live.add(new SegmentMeta(4, 1, 10, 10, 100, 899, 120, 870, true));
        live.add(new SegmentMeta(5, 0, 10, 10, 50, 99, 50, 99, false));
        live.add(new SegmentMeta(6, 0, 10, 10, 0, 49, 0, 49, false));
        List<SortedRun> runs = SortedRun.of(live);
        assertEquals(4, runs.size());
        assertEquals(30, runs.get(1).bytes());
        // Width 4 counts sorted runs, not files; all of the siblings go together.
        TieredPolicy loose = new TieredPolicy(new TieredSettings(4, 16, 5, 6));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), loose.pick(live).orElseThrow().inputIds());
        // Width 2 at most: the newest run plus the three siblings, never one sibling alone.
        TieredPolicy narrow = new TieredPolicy(new TieredSettings(2, 2, 5, 6));
        assertEquals(List.of(1L, 2L, 3L, 4L), narrow.pick(live).orElseThrow().inputIds());
    }

    @Test
    void sequenceRangesThatShareOnlyAnEndpointAreOneRun() {
        // Ranges are inclusive: siblings labelled with the one-point range 500..500 (every merged
        // row had sequence 500) overlap each other, and 50..100 overlaps 100..199 at 100.
        List<SegmentMeta> live = List.of(
                new SegmentMeta(1, 0, 10, 10, 900, 999, 900, 999, false),
                new SegmentMeta(2, 1, 10, 10, 500, 500, 500, 500, true),
                new SegmentMeta(3, 1, 10, 10, 500, 500, 500, 500, true),
                new SegmentMeta(4, 0, 10, 10, 100, 199, 100, 199, false),
                new SegmentMeta(5, 0, 10, 10, 50, 100, 50, 100, false));
        List<SortedRun> runs = SortedRun.of(live);
        assertEquals(3, runs.size());
        assertEquals(List.of(2L, 3L), runs.get(1).segments().stream().map(SegmentMeta::id).toList());
        assertEquals(List.of(4L, 5L), runs.get(2).segments().stream().map(SegmentMeta::id).toList());
    }

    @Test
    void choicesAreAlwaysContiguousWholeRuns() {
        Random random = new Random(42);
        for (int trial = 0; trial < 2000; trial++) {
            int n = random.nextInt(30);
            long[] sizes = new long[n];
            for (int i = 0; i < n; i++) {
                sizes[i] = 1 + (long) Math.pow(10, random.nextDouble() * 4);
            }
            List<SegmentMeta> live = Metas.sizes(sizes);
            policy.pick(live).ifPresent(c -> {
                int first = live.indexOf(c.inputs().getFirst());
                assertEquals(live.subList(first, first + c.inputs().size()), c.inputs(), "contiguous");
                assertTrue(c.inputs().size() >= 4 && c.inputs().size() <= 16);
                assertEquals(first + c.inputs().size() == live.size(), c.bottommost());
                for (int k = 1; k < c.inputs().size(); k++) {
                    long accumulated = c.inputs().subList(0, k).stream().mapToLong(SegmentMeta::fileSize).sum();
                    assertTrue(c.inputs().get(k).fileSize() <= accumulated * 1.5, "size ratio respected");
                }
            });
        }
    }

    @Test
    void aListNotNewestFirstIsRejected() {
        List<SegmentMeta> oldestFirst = new ArrayList<>(Metas.sizes(1, 2, 3, 4).reversed());
        assertThrows(IllegalArgumentException.class, () -> policy.pick(oldestFirst));
    }

    @Test
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(1, 16, 1.5, 6));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 3, 1.5, 6));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 16, 0.5, 6));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 16, Double.NaN, 6));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 16, 1.5, 0));
    }
}
