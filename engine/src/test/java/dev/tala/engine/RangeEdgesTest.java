package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.compaction.CompactionProgress;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.query.SearchFilter;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Time ranges at their edges mean the same to scan, search and compactRange. */
class RangeEdgesTest {
    @TempDir
    Path dir;

    private static Intent intent(long timestamp) {
        return Intent.builder().id(IntentId.of(1, 1)).timestampNs(timestamp).embedding(new float[] {1, 0, 0, 0}).build();
    }

    private Options options() {
        return Options.builder().dimension(4).durability(Durability.none()).backgroundCompaction(false).build();
    }

    /**
     * An empty range compacts nothing and flushes nothing (it threw after flushing); one that
     * ends before it starts is refused, as a scan's is (it was taken for an empty one).
     */
    @Test
    void compactRangeOfAnEmptyRangeIsANoOp() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(intent(10));
            assertEquals(List.of(), db.scan(10, 10, 10));
            assertEquals(Optional.empty(), db.compactRange(10, 10, CompactionProgress.Listener.NONE));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.compactRange(11, 10, CompactionProgress.Listener.NONE));
            assertEquals("time range [11, 10) ends before it starts", e.getMessage());
            assertEquals(0, db.liveSegments().size(), "nothing was flushed");
        }
    }

    /**
     * A range wholly below 0 is empty as a scan sees it (bounds below 0 count as 0), so it holds
     * nothing to compact either; it flushed the memtable, as an empty range once did.
     */
    @Test
    void compactRangeOfARangeBelowZeroIsANoOp() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(intent(10));
            assertEquals(List.of(), db.scan(-5, -3, 10));
            assertEquals(Optional.empty(), db.compactRange(-5, -3, CompactionProgress.Listener.NONE));
            assertEquals(Optional.empty(), db.compactRange(Long.MIN_VALUE, 0, CompactionProgress.Listener.NONE));
            assertEquals(0, db.liveSegments().size(), "nothing was flushed");
        }
    }

    /**
     * A scan whose range ends before it starts is refused with both bounds named, as a search
     * filter's is and as the CLI's is, instead of answering nothing; a range below 0 is empty.
     */
    @Test
    void aScanRangeThatEndsBeforeItStartsIsRefused() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(intent(10));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> db.scan(20, 5, 10));
            assertEquals("time range [20, 5) ends before it starts", e.getMessage());
            // A limit of 0 reads nothing, and let the range pass unchecked (from a review).
            assertThrows(IllegalArgumentException.class, () -> db.scan(20, 5, 0));
            try (Snapshot s = db.snapshot()) {
                assertThrows(IllegalArgumentException.class, () -> s.scan(20, 5, i -> true));
            }
            assertEquals(List.of(), db.scan(-5, -3, 10));
            // The bounds as given, not as raised to 0.
            assertEquals("time range [5, -1) ends before it starts",
                    assertThrows(IllegalArgumentException.class, () -> db.scan(5, -1, 10)).getMessage());
            assertEquals("time range [5, -1) ends before it starts",
                    assertThrows(IllegalArgumentException.class, () -> SearchFilter.ALL.withTimeRange(5, -1)).getMessage());
            assertEquals(1, db.scan(10, 11, 10).size());
        }
    }

    /** A range from below 0 starts at 0 for a search filter as for a scan (the filter refused it). */
    @Test
    void aSearchFilterFromBelowZeroStartsAtZeroAsAScanDoes() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(intent(10));
            assertEquals(1, db.scan(-5, 20, 10).size());
            assertEquals(1, db.search(new float[] {1, 0, 0, 0}, 5, SearchFilter.ALL.withTimeRange(-5, 20)).size());
            assertEquals(0, db.search(new float[] {1, 0, 0, 0}, 5, SearchFilter.ALL.withTimeRange(-5, 10)).size());
        }
    }

    /** Bounds below 0 count as 0, so [0, -1) and [-3, -5) are empty ranges, not refused ones (from a mutation audit). */
    @Test
    void aRangeBelowZeroInEitherOrderIsEmpty() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(intent(10));
            assertEquals(List.of(), db.scan(0, -1, 10));
            assertEquals(List.of(), db.scan(-3, -5, 10));
        }
    }
}
