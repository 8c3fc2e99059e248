package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionStats;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.segment.SegmentMeta;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Intents deleted soon after they were written (a service using the database as a queue) do not
 * make the default policy rewrite the old data. Their tombstones meet their rows in young merges,
 * where no older segment's bloom filter holds their ids, so both go there; before, the
 * tombstones were carried on and counted toward the size-tiered tombstone check, which merged
 * everything about every quarter of the oldest run's rows in deletes, to drop tombstones that
 * hid nothing. Compactions run on the test's thread, so the sequence is the same every run.
 */
class ShortLivedIntentsTest {
    private static final int OLD_INTENTS = 2000;
    private static final int PER_ROUND = 100;
    /** 1,500 short-lived intents: three times the 500 deletes that would trip the check. */
    private static final int ROUNDS = 15;
    private static final int DIMENSION = 384;

    @TempDir
    Path dir;

    @Test
    void shortLivedIntentsLeaveTheOldRunAlone() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < OLD_INTENTS; i++) {
                db.put(intent(i));
            }
            db.compact();
            SegmentMeta oldRun = db.liveSegments().getFirst();
            assertEquals(1, db.liveSegments().size());
            List<CompactionStats> ran = new ArrayList<>();
            int next = OLD_INTENTS;
            for (int round = 0; round < ROUNDS; round++) {
                int first = next;
                for (int n = 0; n < PER_ROUND; n++) {
                    db.put(intent(next++));
                }
                ran.addAll(db.compactPending(p -> { }));
                for (int i = first; i < next; i++) {
                    db.delete(id(i));
                }
                ran.addAll(db.compactPending(p -> { }));
            }
            long tombstonesDropped = ran.stream().mapToLong(CompactionStats::tombstonesDropped).sum();
            assertTrue(db.liveSegments().stream().anyMatch(m -> m.id() == oldRun.id()),
                    "the old run was merged again: " + db.liveSegments() + " after " + ran);
            long tombstonesLeft = db.liveSegments().stream().mapToLong(SegmentMeta::tombstones).sum();
            assertTrue(tombstonesLeft <= 2 * PER_ROUND, tombstonesLeft + " tombstones still on disk, "
                    + tombstonesDropped + " dropped: " + db.liveSegments());
            assertTrue(tombstonesDropped >= (ROUNDS - 2) * PER_ROUND, "only " + tombstonesDropped
                    + " tombstones were dropped by " + ran);
            for (int i = 0; i < next; i++) {
                assertEquals(i < OLD_INTENTS, db.get(id(i)).isPresent(), "intent " + i);
            }
        }
    }

    /**
     * A flush leaves out a tombstone whose id no segment holds: deleted before its memtable was
     * flushed, the intent never reaches the disk. One whose row is in a segment is written, and
     * both answers survive a reopen.
     */
    @Test
    void aFlushWritesOnlyTheTombstonesThatHideSomething() {
        IntentId stored = id(1);
        IntentId fleeting = id(2);
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(intent(1));
            db.flush();
            db.put(intent(2));
            db.delete(fleeting);
            db.delete(stored);
            db.flush();
            List<SegmentMeta> segments = db.liveSegments();
            assertEquals(2, segments.size(), segments.toString());
            assertEquals(1, segments.getFirst().rows(), "only the tombstone of the stored intent: " + segments);
            assertEquals(1, segments.getFirst().tombstones(), segments.toString());
            db.delete(fleeting);
            db.flush();
            assertEquals(segments, db.liveSegments(), "a memtable of tombstones hiding nothing writes no segment");
        }
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertTrue(db.get(stored).isEmpty());
            assertTrue(db.get(fleeting).isEmpty());
            assertEquals(2, db.liveSegments().size());
        }
    }

    /**
     * A flush that leaves nothing to write still makes its memtable's WAL files obsolete. Before,
     * it appended no edit, and only a later flush that wrote a segment retired them: a service
     * whose every memtable is deleted before it is flushed (a drained queue, flushed between
     * batches) kept one WAL file per flush for good, and replayed them all at each open.
     */
    @Test
    void aFlushThatWritesNothingRetiresItsWalFiles() {
        int rounds = 20;
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int round = 0; round < rounds; round++) {
                db.put(intent(round));
                db.delete(id(round));
                db.flush();
            }
            DbStats stats = db.stats();
            assertEquals(0, stats.segments(), stats.toString());
            assertEquals(1, stats.walFiles(), "only the current WAL file is left after a flush: " + stats);
        }
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertTrue(db.recoveryReport().isClean(), db.recoveryReport().summary());
            for (int round = 0; round < rounds; round++) {
                assertTrue(db.get(id(round)).isEmpty(), "intent " + round);
            }
            db.put(intent(rounds));
            db.flush();
            assertEquals(1, db.stats().walFiles(), db.stats().toString());
        }
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertTrue(db.get(id(rounds)).isPresent());
            assertEquals(1, db.liveSegments().size(), db.liveSegments().toString());
        }
    }

    private static Options options() {
        return Options.builder().dimension(DIMENSION).durability(Durability.none()).backgroundCompaction(false).build();
    }

    private static IntentId id(int i) {
        return IntentId.of(0x0190_0000_0000_9000L, i + 1);
    }

    private static Intent intent(int i) {
        float[] embedding = new float[DIMENSION];
        embedding[0] = 1;
        embedding[1] = i;
        return Intent.builder().id(id(i)).timestampNs(i).command("job " + i).embedding(embedding).build();
    }
}
