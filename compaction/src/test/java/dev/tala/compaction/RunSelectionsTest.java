package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.segment.SegmentMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunSelectionsTest {
    private final CompactionPolicy policy = TieredPolicy.withDefaults();

    @Test
    void fullTakesEverythingAndIsBottommost() {
        CompactionChoice c = policy.full(Metas.of(new long[] {1, 2, 3}, new int[] {0, 2, 1})).orElseThrow();
        assertEquals(List.of(1L, 2L, 3L), c.inputIds());
        assertTrue(c.bottommost());
        assertEquals(3, c.outputLevel());
        assertEquals(CompactionChoice.Reason.FULL, c.reason());
        assertTrue(policy.full(List.of()).isEmpty());
    }

    @Test
    void aTimeRangeTakesTheSmallestContiguousRunCoveringItsSegments() {
        // Segment i (1-based, newest first) of 5 covers [100 * (6 - i), 100 * (6 - i) + 99].
        List<SegmentMeta> live = Metas.sizes(1, 1, 1, 1, 1); // 1:[500,599] 2:[400,499] 3:[300,399] 4:[200,299] 5:[100,199]
        CompactionChoice c = policy.overlapping(live, 350, 450).orElseThrow();
        assertEquals(List.of(2L, 3L), c.inputIds());
        assertFalse(c.bottommost());
        assertEquals(CompactionChoice.Reason.TIME_RANGE, c.reason());

        CompactionChoice toTheEnd = policy.overlapping(live, 0, 250).orElseThrow();
        assertEquals(List.of(4L, 5L), toTheEnd.inputIds());
        assertTrue(toTheEnd.bottommost(), "it includes the oldest segment");
    }

    @Test
    void theRangeIsHalfOpen() {
        List<SegmentMeta> live = Metas.sizes(1, 1, 1, 1, 1);
        // [400, 500): segment 1 starts at 500 exactly, so it is out; segment 3 ends at 399, out.
        assertEquals(List.of(2L), policy.overlapping(live, 400, 500).orElseThrow().inputIds());
        // [399, 400) touches segment 3's last nanosecond only.
        assertEquals(List.of(3L), policy.overlapping(live, 399, 400).orElseThrow().inputIds());
        assertTrue(policy.overlapping(live, 700, 800).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> policy.overlapping(live, 5, 5));
    }

    /**
     * From a mutation audit: a segment with no rows holds nothing in any time range, whatever
     * its metadata's 0..0 says, so a range from 0 does not take it (nor make the choice bottommost).
     */
    @Test
    void aSegmentWithoutRowsOverlapsNoRange() {
        List<SegmentMeta> live = List.of(
                new SegmentMeta(1, 0, 1, 1, 0, 10, 20, 100, 199, false),
                new SegmentMeta(2, 0, 1, 0, 0, 0, 0, 0, 99, false));
        CompactionChoice c = policy.overlapping(live, 0, 15).orElseThrow();
        assertEquals(List.of(1L), c.inputIds());
        assertFalse(c.bottommost());
        assertTrue(policy.overlapping(live, 0, 5).isEmpty());
    }

    @Test
    void segmentsBetweenOverlappingOnesAreIncluded() {
        // Segment 2's time range is far away (e.g. late-arriving old intents) but it sits between
        // segments 1 and 3 in sequence order, so the run must include it to stay contiguous.
        List<SegmentMeta> live = List.of(
                new SegmentMeta(1, 0, 1, 1, 0, 1000, 1100, 300, 399, false),
                new SegmentMeta(2, 0, 1, 1, 0, 5, 10, 200, 299, false),
                new SegmentMeta(3, 0, 1, 1, 0, 1050, 1200, 100, 199, false),
                new SegmentMeta(4, 0, 1, 1, 0, 0, 1, 0, 99, false));
        CompactionChoice c = policy.overlapping(live, 1090, 1095).orElseThrow();
        assertEquals(List.of(1L, 2L, 3L), c.inputIds());
        assertFalse(c.bottommost());
    }
}
