package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionStats;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.segment.SegmentMeta;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deleted intents leave the disk under the default policy even when the database stops growing.
 * An audit at stop 39 deleted 1,800 of 2,000 intents after a full compaction and then overwrote
 * the other 200 over and over: the overwrites folded away in young merges, the newer runs never
 * grew to the oldest run's size, and the deleted rows stayed on disk through hundreds of
 * compactions. Compactions run here on the test's thread ({@code compactPending}), so the
 * sequence is the same every run.
 */
class MassDeleteReclaimTest {
    private static final int INTENTS = 2000;
    private static final int KEPT = 200;
    private static final int DIMENSION = 384;

    @TempDir
    Path dir;

    @Test
    void theDeletedRowsAreDroppedWithoutAFullCompactionRequest() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            putAll(db, 0);
            db.compact();
            deleteAllButTheKept(db);
            for (int round = 1; round <= 30; round++) {
                overwriteTheKept(db, round);
            }
            long rows = 0;
            for (SegmentMeta m : db.liveSegments()) {
                rows += m.rows();
            }
            assertTrue(rows < INTENTS - KEPT, "the live segments hold " + rows + " rows: the "
                    + (INTENTS - KEPT) + " deleted intents are still on disk; " + db.liveSegments());
            for (int i = 0; i < INTENTS; i++) {
                var got = db.get(id(i));
                if (i < KEPT) {
                    assertEquals(30, got.orElseThrow().timestampNs(), "intent " + i + " holds its last overwrite");
                } else {
                    assertTrue(got.isEmpty(), "intent " + i + " was deleted");
                }
            }
        }
    }

    /**
     * The deletes ask for one merge of everything, which drops every tombstone and the rows they
     * hide, and then the policy is done. A snapshot taken before the deletes keeps reading the
     * deleted intents: it holds the files it read, not rows inside the merge.
     */
    @Test
    void theDeletesAskForOneMergeAndThenNothing() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            putAll(db, 0);
            db.compact();
            try (Snapshot before = db.snapshot()) {
                for (int i = KEPT; i < INTENTS; i++) {
                    db.delete(id(i));
                }
                List<CompactionStats> ran = db.compactPending(p -> { });
                assertEquals(1, ran.size(), "one merge of everything for the tombstones: " + ran);
                assertEquals(INTENTS - KEPT, ran.getFirst().tombstonesDropped(), ran.getFirst().toString());
                assertEquals(KEPT, ran.getFirst().outputRows(), ran.getFirst().toString());
                assertTrue(db.compactPending(p -> { }).isEmpty(), "nothing left to merge");
                assertTrue(before.get(id(INTENTS - 1)).isPresent(), "the snapshot still reads a deleted intent");
                assertTrue(db.get(id(INTENTS - 1)).isEmpty());
            }
        }
    }

    private static Options options() {
        // Rows of the usual size: a put's 384 floats dwarf a tombstone, as in the audit.
        return Options.builder().dimension(DIMENSION).durability(Durability.none()).backgroundCompaction(false).build();
    }

    private static IntentId id(int i) {
        return IntentId.of(0x0190_0000_0000_7000L, i + 1);
    }

    private static void putAll(TalaDB db, long timestamp) {
        for (int i = 0; i < INTENTS; i++) {
            db.put(intent(i, timestamp));
        }
    }

    private static void deleteAllButTheKept(TalaDB db) {
        for (int i = KEPT; i < INTENTS; i++) {
            db.delete(id(i));
        }
        db.compactPending(p -> { });
    }

    private static void overwriteTheKept(TalaDB db, long timestamp) {
        for (int i = 0; i < KEPT; i++) {
            db.put(intent(i, timestamp));
        }
        db.compactPending(p -> { });
    }

    private static Intent intent(int i, long timestamp) {
        float[] embedding = new float[DIMENSION];
        embedding[0] = 1;
        embedding[1] = i;
        embedding[2] = timestamp;
        return Intent.builder().id(id(i)).timestampNs(timestamp).command("intent " + i).embedding(embedding).build();
    }
}
