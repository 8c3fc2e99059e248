package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.segment.SegmentMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How live segments group into sorted runs, which every policy moves whole. */
class SortedRunTest {
    private static SegmentMeta meta(long id, int level, long minSequence, long maxSequence) {
        return new SegmentMeta(id, level, 10, 10, 0, minSequence, maxSequence, minSequence, maxSequence, level > 0);
    }

    private static List<List<Long>> runIds(List<SegmentMeta> live) {
        return SortedRun.of(live).stream().map(r -> r.segments().stream().map(SegmentMeta::id).toList()).toList();
    }

    /**
     * From a mutation audit: a segment joins the run when its range reaches the lowest sequence
     * of any segment already in it, not only the first one's. Segment 3 (400..450) lies inside
     * segment 2's range (300..550) but below segment 1's (500..600); split off, a policy could
     * merge 3 with older runs while 2 stays above it, and an older version would shadow a newer.
     */
    @Test
    void aSegmentOverlappingAnyEarlierSegmentOfTheRunJoinsIt() {
        List<SegmentMeta> live = List.of(
                meta(1, 1, 500, 600),
                meta(2, 1, 300, 550),
                meta(3, 1, 400, 450),
                meta(4, 0, 100, 299));
        assertEquals(List.of(List.of(1L, 2L, 3L), List.of(4L)), runIds(live));
        CompactionChoice splitting = new CompactionChoice(live.subList(2, 4), 2, true,
                CompactionChoice.Reason.SIZE_RATIO);
        assertThrows(IllegalStateException.class, () -> splitting.requireRunnableOver(live, "custom"));
    }

    /** From a mutation audit: a run's level is its deepest segment's, not its oldest segment's. */
    @Test
    void aRunsLevelAndSizeAreThoseOfAllItsSegments() {
        List<SegmentMeta> live = List.of(
                meta(1, 3, 100, 200),
                meta(2, 1, 100, 200),
                meta(3, 2, 100, 200));
        SortedRun run = SortedRun.of(live).getFirst();
        assertEquals(3, run.level());
        assertEquals(30, run.bytes());
        assertEquals(30, run.rows());
        assertEquals(0, run.first());
        assertEquals(3, run.end());
    }
}
