package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionProgress;
import dev.tala.compaction.CompactionStats;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactionTest {
    static final int DIM = 8;
    @TempDir
    Path dir;

    private static Options.Builder options() {
        return Options.builder().dimension(DIM).memtableBytes(16 * 1024).durability(Durability.none());
    }

    private static long segmentFiles(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir.resolve("segments"))) {
            return s.count();
        }
    }

    @Test
    void backgroundCompactionKeepsEveryReadRightAndBoundsTheSegmentCount() throws Exception {
        RandomIntents gen = new RandomIntents(11, DIM);
        Map<IntentId, Intent> model = new HashMap<>();
        List<IntentId> ids = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options().build())) {
            for (int i = 0; i < 4000; i++) {
                Intent x = gen.next();
                db.put(x);
                model.put(x.id(), x);
                ids.add(x.id());
                if (i % 10 == 0) {
                    IntentId victim = ids.get(gen.random().nextInt(ids.size()));
                    db.delete(victim);
                    model.remove(victim);
                }
                if (i % 7 == 0) {
                    IntentId id = ids.get(gen.random().nextInt(ids.size()));
                    if (model.containsKey(id)) {
                        db.attachOutcome(id, Status.SUCCESS, new Outcome(i, 0));
                        model.put(id, model.get(id).withOutcome(Status.SUCCESS, new Outcome(i, 0)));
                    }
                }
            }
            db.flush();
            DbStats stats = awaitCompactions(db);
            assertTrue(stats.compactions() > 0, "background compactions ran: " + stats);
            assertTrue(stats.flushes() > stats.segments(), "compaction reduced the segment count: " + stats);
            assertTrue(stats.writeAmplification() > 0, stats.toString());
            for (IntentId id : ids) {
                assertEquals(Optional.ofNullable(model.get(id)), db.get(id));
            }
            assertEquals(model.size(), stats.intents());
        }
        try (TalaDB db = TalaDB.open(dir, options().build())) {
            for (IntentId id : ids) {
                assertEquals(Optional.ofNullable(model.get(id)), db.get(id), "after reopen");
            }
        }
    }

    private static DbStats awaitCompactions(TalaDB db) throws InterruptedException {
        DbStats stats = db.stats();
        // Up to a minute: background compaction shares two cores with the rest of the build.
        for (int i = 0; i < 1200 && stats.pendingCompactionBytes() > 0; i++) {
            Thread.sleep(50);
            stats = db.stats();
        }
        return stats;
    }

    @Test
    void aFullCompactionDropsTombstonesAndDeletesInputsOnlyAfterTheLastReader() throws Exception {
        RandomIntents gen = new RandomIntents(12, DIM);
        List<Intent> all = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options().backgroundCompaction(false).build())) {
            for (int i = 0; i < 1500; i++) {
                Intent x = gen.next();
                db.put(x);
                all.add(x);
            }
            for (Intent x : all.subList(0, 500)) {
                db.delete(x.id());
            }
            db.flush();
            long before = segmentFiles(dir);
            assertTrue(before > 3, "several flushed segments: " + before);
            Snapshot pinned = db.snapshot();
            List<CompactionProgress> progress = new ArrayList<>();
            CompactionStats stats = db.compact(progress::add).orElseThrow();
            assertEquals(1000, stats.outputRows(), "tombstones and deleted intents are gone");
            assertTrue(stats.tombstonesDropped() >= 500, stats.toString());
            assertFalse(progress.isEmpty());
            assertEquals(1, db.stats().segments());
            // The snapshot still maps the inputs, so their files stay until it is closed.
            assertTrue(segmentFiles(dir) > 1, "inputs kept while a snapshot uses them");
            assertEquals(Optional.of(all.get(700)), pinned.get(all.get(700).id()));
            assertEquals(Optional.empty(), pinned.get(all.get(10).id()));
            pinned.close();
            // Deleted on a background thread, so that the reader that let go does not wait on the disk.
            long left = segmentFiles(dir);
            for (int i = 0; i < 1000 && left != 1; i++) {
                Thread.sleep(10);
                left = segmentFiles(dir);
            }
            assertEquals(1, left, "inputs deleted once no reader maps them");
            for (Intent x : all.subList(500, 1500)) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
            db.compact(p -> { });
            assertEquals(1, db.stats().segments(), "compacting a single run leaves one segment");
        }
        try (TalaDB db = TalaDB.open(dir, options().build())) {
            assertTrue(db.recoveryReport().isClean(), db.recoveryReport().summary());
            assertEquals(1000, db.stats().intents());
        }
    }

    @Test
    void coldLevelsCanBeStoredAsInt8() throws Exception {
        RandomIntents gen = new RandomIntents(13, DIM);
        List<Intent> all = new ArrayList<>();
        Options opts = options().backgroundCompaction(false).coldEmbeddingType(EmbeddingType.INT8, 1).build();
        try (TalaDB db = TalaDB.open(dir, opts)) {
            for (int i = 0; i < 600; i++) {
                Intent x = gen.next();
                db.put(x);
                all.add(x);
            }
            db.compact(p -> { });
            for (Intent x : all) {
                Intent back = db.get(x.id()).orElseThrow();
                assertEquals(x.command(), back.command());
                assertEquals(x.edges(), back.edges());
                float max = 0;
                for (int k = 0; k < DIM; k++) {
                    max = Math.max(max, Math.abs(x.embedding(k)));
                }
                for (int k = 0; k < DIM; k++) {
                    assertEquals(x.embedding(k), back.embedding(k), max / 127 + 1e-6, "int8 keeps values within a step");
                }
            }
        }
    }
}
