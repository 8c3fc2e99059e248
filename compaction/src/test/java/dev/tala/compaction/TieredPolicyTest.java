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
    private final TieredPolicy policy = new TieredPolicy(new TieredSettings(4, 16, 1.5, 6, 0.25));

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
        live.add(new SegmentMeta(1, 0, 10, 10, 0, 900, 999, 900, 999, false));
        live.add(new SegmentMeta(2, 1, 10, 10, 0, 100, 899, 150, 899, true));
        live.add(new SegmentMeta(3, 1, 10, 10, 0, 100, 899, 100, 880, true));
        live.add(new SegmentMeta(4, 1, 10, 10, 0, 100, 899, 120, 870, true));
        live.add(new SegmentMeta(5, 0, 10, 10, 0, 50, 99, 50, 99, false));
        live.add(new SegmentMeta(6, 0, 10, 10, 0, 0, 49, 0, 49, false));
        List<SortedRun> runs = SortedRun.of(live);
        assertEquals(4, runs.size());
        assertEquals(30, runs.get(1).bytes());
        // Width 4 counts sorted runs, not files; all of the siblings go together.
        TieredPolicy loose = new TieredPolicy(new TieredSettings(4, 16, 5, 6, 0.25));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), loose.pick(live).orElseThrow().inputIds());
        // Width 2 at most: the newest run plus the three siblings, never one sibling alone.
        TieredPolicy narrow = new TieredPolicy(new TieredSettings(2, 2, 5, 6, 0.25));
        assertEquals(List.of(1L, 2L, 3L, 4L), narrow.pick(live).orElseThrow().inputIds());
    }

    @Test
    void sequenceRangesThatShareOnlyAnEndpointAreOneRun() {
        // Ranges are inclusive: siblings labelled with the one-point range 500..500 (every merged
        // row had sequence 500) overlap each other, and 50..100 overlaps 100..199 at 100.
        List<SegmentMeta> live = List.of(
                new SegmentMeta(1, 0, 10, 10, 0, 900, 999, 900, 999, false),
                new SegmentMeta(2, 1, 10, 10, 0, 500, 500, 500, 500, true),
                new SegmentMeta(3, 1, 10, 10, 0, 500, 500, 500, 500, true),
                new SegmentMeta(4, 0, 10, 10, 0, 100, 199, 100, 199, false),
                new SegmentMeta(5, 0, 10, 10, 0, 50, 100, 50, 100, false));
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
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(1, 16, 1.5, 6, 0.25));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 3, 1.5, 6, 0.25));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 16, 0.5, 6, 0.25));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 16, Double.NaN, 6, 0.25));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 16, 1.5, 0, 0.25));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 16, 1.5, 6, -0.1));
        assertThrows(IllegalArgumentException.class, () -> new TieredSettings(4, 16, 1.5, 6, Double.NaN));
        assertThrows(IllegalArgumentException.class,
                () -> new TieredSettings(4, 16, 1.5, 6, Double.POSITIVE_INFINITY));
    }

    /**
     * The shape an audit found at stop 39: 1,800 of 2,000 intents deleted after a full
     * compaction, then the rest overwritten again and again. The newer runs hold the tombstones
     * and stay well below the oldest run in size, so the size ratio never reaches it.
     */
    static List<SegmentMeta> massDeleteAfterFullCompaction(long oldestRows, long newerTombstones) {
        return List.of(
                new SegmentMeta(1, 0, 60_000, 200, 0, 900, 999, 900, 999, false),
                new SegmentMeta(2, 0, 60_000, 200, 0, 800, 899, 800, 899, false),
                new SegmentMeta(3, 1, 90_000, 200 + newerTombstones, newerTombstones, 100, 799, 100, 799, true),
                new SegmentMeta(4, 2, 600_000, oldestRows, 0, 0, 99, 0, 99, true));
    }

    @Test
    void tombstonesInNewerRunsMergeEverythingSoTheyDropWithWhatTheyHide() {
        List<SegmentMeta> live = massDeleteAfterFullCompaction(2000, 1800);
        assertTrue(new TieredPolicy(new TieredSettings(4, 16, 1.5, 6, 0)).pick(live).isEmpty(),
                "without the tombstone count the size ratio alone leaves the oldest run alone");
        CompactionChoice c = policy.pick(live).orElseThrow();
        assertEquals(List.of(1L, 2L, 3L, 4L), c.inputIds());
        assertTrue(c.bottommost(), "only a merge that reaches the oldest run drops tombstones");
        assertEquals(CompactionChoice.Reason.TOMBSTONES, c.reason());
        assertEquals(3, c.outputLevel());
        c.requireRunnableOver(live, policy.name());
    }

    @Test
    void theTombstoneTriggerStartsAtItsRatioOfTheOldestRunsRows() {
        // 0.25 of 2,000 rows: 499 tombstones are not enough, 500 are.
        assertTrue(policy.pick(massDeleteAfterFullCompaction(2000, 499)).isEmpty());
        assertEquals(CompactionChoice.Reason.TOMBSTONES,
                policy.pick(massDeleteAfterFullCompaction(2000, 500)).orElseThrow().reason());
    }

    @Test
    void theOldestRunsOwnTombstonesDoNotCount() {
        // A first flush of deletes of intents never stored: nothing older for them to hide, so
        // merging for them would rewrite everything after every flush and reclaim nothing.
        List<SegmentMeta> live = List.of(
                new SegmentMeta(1, 0, 10, 10, 0, 900, 999, 900, 999, false),
                new SegmentMeta(2, 0, 1000, 2000, 1800, 0, 899, 0, 899, false));
        assertTrue(policy.pick(live).isEmpty());
        assertTrue(policy.pick(List.of(live.get(1))).isEmpty(), "one run has nothing to merge with");
    }

    /**
     * From a mutation audit: without a tombstone in the newer runs there is nothing to reclaim,
     * even when the oldest run has no rows at all (0 tombstones reach 0.25 of 0 rows), so no
     * merge of everything is asked for.
     */
    @Test
    void noTombstoneMergeWithoutTombstonesEvenOverAnOldestRunWithoutRows() {
        List<SegmentMeta> live = List.of(
                new SegmentMeta(1, 0, 10, 10, 0, 900, 999, 900, 999, false),
                new SegmentMeta(2, 0, 10, 10, 0, 800, 899, 800, 899, false),
                new SegmentMeta(3, 1, 10, 0, 0, 0, 0, 0, 799, true));
        assertTrue(policy.pick(live).isEmpty());
    }

    @Test
    void theTombstoneMergeTakesEveryRunBeyondTheMaximumWidth() {
        // Twenty runs, the newest full of tombstones: dropping them needs every run down to the
        // oldest, so this one merge is not capped at maxMergeWidth.
        List<SegmentMeta> live = new ArrayList<>();
        long size = 10;
        for (int i = 0; i < 20; i++) {
            long lo = 100L * (20 - i);
            live.add(new SegmentMeta(i + 1, 0, size, 100, i == 0 ? 100 : 0, lo, lo + 99, lo, lo + 99, false));
            size *= 3; // every older run is too big to join by size
        }
        assertTrue(new TieredPolicy(new TieredSettings(4, 16, 1.5, 6, 0)).pick(live).isEmpty());
        CompactionChoice c = policy.pick(live).orElseThrow();
        assertEquals(Metas.range(1, 20), c.inputIds());
        assertTrue(c.bottommost());
    }
}
