package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionChoice.Reason;
import dev.tala.segment.SegmentMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the engine accepts from a compaction policy (a custom one may choose anything). */
class CompactionChoiceTest {
    /** Newest first: two flush segments, a sorted run of two (overlapping sequences), the oldest flush. */
    private static final List<SegmentMeta> LIVE = List.of(
            meta(1, 500, 599),
            meta(2, 400, 499),
            meta(3, 200, 399),
            meta(4, 200, 399),
            meta(5, 100, 199));

    private static SegmentMeta meta(long id, long minSequence, long maxSequence) {
        return new SegmentMeta(id, 0, 100, 10, 0, minSequence, maxSequence, minSequence, maxSequence, false);
    }

    private static CompactionChoice choice(boolean bottommost, int... indexes) {
        return new CompactionChoice(java.util.Arrays.stream(indexes).mapToObj(LIVE::get).toList(), 1, bottommost,
                Reason.SIZE_RATIO);
    }

    private static String refusal(CompactionChoice c) {
        return assertThrows(IllegalStateException.class, () -> c.requireRunnableOver(LIVE, "custom")).getMessage();
    }

    @Test
    void runsOfWholeSortedRunsAreAccepted() {
        assertDoesNotThrow(() -> choice(false, 0).requireRunnableOver(LIVE, "custom"));
        assertDoesNotThrow(() -> choice(false, 0, 1).requireRunnableOver(LIVE, "custom"));
        assertDoesNotThrow(() -> choice(false, 2, 3).requireRunnableOver(LIVE, "custom"));
        assertDoesNotThrow(() -> choice(true, 2, 3, 4).requireRunnableOver(LIVE, "custom"));
        assertDoesNotThrow(() -> choice(true, 0, 1, 2, 3, 4).requireRunnableOver(LIVE, "custom"));
        // Keeping tombstones that could go is only wasteful.
        assertDoesNotThrow(() -> choice(false, 4).requireRunnableOver(LIVE, "custom"));
    }

    /** Run as chosen, this dropped a tombstone while segment 5 still held the intent it deleted. */
    @Test
    void bottommostWithoutTheOldestSegmentIsRefused() {
        assertEquals("compaction policy 'custom' chose segments [1]: the choice is marked bottommost but leaves out the"
                + " oldest segment, 5, which may hold older versions of their ids (live segments, newest first:"
                + " [1, 2, 3, 4, 5]); nothing was compacted", refusal(choice(true, 0)));
    }

    /** From a mutation audit: leaving out only the oldest segment is enough to be refused. */
    @Test
    void bottommostWithoutOnlyTheOldestSegmentIsRefused() {
        assertTrue(refusal(choice(true, 0, 1, 2, 3)).contains("marked bottommost but leaves out the oldest segment, 5"));
    }

    /** Run as chosen, the merged output of 1 and 3 sat below 2, and an older version shadowed a newer one. */
    @Test
    void inputsThatSkipASegmentOrComeOutOfOrderAreRefused() {
        String skip = refusal(choice(false, 0, 2, 3));
        assertEquals("compaction policy 'custom' chose segments [1, 3, 4]: they are not a contiguous run of the live"
                + " segments, newest first (live segments, newest first: [1, 2, 3, 4, 5]); nothing was compacted", skip);
        refusal(choice(false, 1, 0));
    }

    @Test
    void aSortedRunIsNotSplit() {
        assertEquals("compaction policy 'custom' chose segments [2, 3]: they split a sorted run (segments whose"
                + " sequence ranges overlap) (live segments, newest first: [1, 2, 3, 4, 5]); nothing was compacted",
                refusal(choice(false, 1, 2)));
        refusal(choice(false, 3, 4));
        refusal(choice(false, 3));
    }

    /**
     * A choice made from a stale list: live ids, other metadata. A move recorded it in the
     * MANIFEST as given, and scans skipped the segments by their wrong time range (from a review).
     */
    @Test
    void inputsDescribedOtherwiseThanTheLiveSegmentsAreRefused() {
        SegmentMeta first = LIVE.getFirst();
        SegmentMeta stale = new SegmentMeta(first.id(), first.level(), first.fileSize(), first.rows(), first.tombstones(), 5_000_000,
                5_000_001, first.minSequence(), first.maxSequence(), first.compacted());
        String refusal = refusal(new CompactionChoice(List.of(stale), 1, false, Reason.SIZE_RATIO));
        assertTrue(refusal.startsWith("compaction policy 'custom' chose segments [1]: segment 1 is described otherwise"
                + " than the live one ("), refusal);
    }

    /** It failed with NoSuchElementException ("No value present"). */
    @Test
    void aSegmentThatIsNotLiveIsNamed() {
        CompactionChoice gone = new CompactionChoice(List.of(meta(999, 0, 10)), 1, false, Reason.SIZE_RATIO);
        assertEquals("compaction policy 'custom' chose segments [999]: segment 999 is not live (live segments, newest"
                + " first: [1, 2, 3, 4, 5]); nothing was compacted", refusal(gone));
        CompactionChoice partly = new CompactionChoice(List.of(LIVE.get(4), meta(999, 0, 10)), 1, true, Reason.SIZE_RATIO);
        refusal(partly);
    }

    /**
     * From a mutation audit: a choice of no inputs, or of an output level the MANIFEST's one
     * byte cannot hold (256 would be written as level 0), is refused when it is made, whoever
     * made it.
     */
    @Test
    void aChoiceNeedsAnInputAndAnOutputLevelWithin0To255() {
        assertThrows(IllegalArgumentException.class, () -> new CompactionChoice(List.of(), 1, false, Reason.FULL));
        assertThrows(IllegalArgumentException.class, () -> new CompactionChoice(LIVE, -1, true, Reason.FULL));
        assertThrows(IllegalArgumentException.class, () -> new CompactionChoice(LIVE, 256, true, Reason.FULL));
        assertEquals(255, new CompactionChoice(LIVE, 255, true, Reason.FULL).outputLevel());
        assertEquals(0, new CompactionChoice(LIVE, 0, true, Reason.FULL).outputLevel());
    }

    /** Every choice the built-in policies make over flush-like segments passes. */
    @Test
    void theBuiltInPoliciesChoicesPass() {
        for (int n = 1; n <= 12; n++) {
            long[] sizes = new long[n];
            java.util.Arrays.fill(sizes, 1 << 20);
            List<SegmentMeta> live = Metas.sizes(sizes);
            for (CompactionPolicy policy : List.of(TieredPolicy.withDefaults(), LeveledPolicy.withDefaults())) {
                policy.pick(live).ifPresent(c -> c.requireRunnableOver(live, policy.name()));
                policy.full(live).ifPresent(c -> c.requireRunnableOver(live, policy.name()));
                policy.overlapping(live, 250, 420).ifPresent(c -> c.requireRunnableOver(live, policy.name()));
            }
        }
    }
}
