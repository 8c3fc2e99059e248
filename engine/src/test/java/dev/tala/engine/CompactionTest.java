package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionProgress;
import dev.tala.compaction.CompactionStats;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.recovery.manifest.ManifestReader;
import dev.tala.recovery.manifest.ManifestState;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    /**
     * Intents written in id order flush into segments that share no id; compacting them keeps
     * the files and only re-labels them (a move). A later merge with overlapping data still
     * rewrites them and deletes them as usual.
     */
    /**
     * A stall limit below the policy's narrowest merge (tiered merges 4 runs at least) once made
     * every writer wait forever for a compaction the policy would never pick.
     */
    @Test
    void writersDoNotStallForACompactionThePolicyWillNotRun() throws Exception {
        RandomIntents gen = new RandomIntents(12, DIM);
        List<Intent> written = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options().level0StallSegments(1).build())) {
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                for (int i = 0; i < 2000; i++) {
                    Intent x = gen.next();
                    db.put(x);
                    written.add(x);
                }
            });
            DbStats stats = awaitCompactions(db);
            assertTrue(stats.flushes() >= 8, "enough flushes to pass the stall limit: " + stats);
            assertTrue(stats.compactions() > 0, "the policy still compacts when it can: " + stats);
            for (Intent x : written) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
        }
    }

    /** The MANIFEST of a long-lived database forgets compaction inputs once their files are deleted. */
    /**
     * Close stops a background compaction "promptly": at its next row, and not after the sleep
     * its rate limit asked for, which at 1 KiB/s and a write buffer of debt lasted half a minute
     * (up to two, when close gave up waiting and left the thread sleeping).
     */
    @Test
    void closeDoesNotWaitOutARateLimitedCompactionsSleep() throws Exception {
        RandomIntents gen = new RandomIntents(32, DIM);
        Options throttled = Options.builder().dimension(DIM).memtableBytes(16 * 1024).durability(Durability.none())
                .compactionMoves(false).compactionBytesPerSecond(1024).build();
        TalaDB db = TalaDB.open(dir.resolve("db"), throttled);
        List<Intent> written = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            Intent x = gen.next();
            db.put(x);
            written.add(x);
        }
        db.flush();
        Thread.sleep(1500); // the background compaction starts and reaches its first throttled write
        long start = System.nanoTime();
        db.close();
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 10_000, "close waited " + millis + " ms for a rate-limited compaction");
        try (TalaDB again = TalaDB.open(dir.resolve("db"), throttled.toBuilder().backgroundCompaction(false).build())) {
            for (Intent x : written) {
                assertEquals(Optional.of(x), again.get(x.id()));
            }
        }
    }

    @Test
    void manifestRewritesForgetDeletedCompactionInputs() throws Exception {
        RandomIntents gen = new RandomIntents(13, DIM);
        DatabaseLayout layout = new DatabaseLayout(dir);
        try (TalaDB db = TalaDB.open(dir, options().backgroundCompaction(false).manifestRewriteBytes(2048).build())) {
            for (int i = 0; i < 120; i++) {
                db.put(gen.next());
                db.flush();
                db.compact(CompactionProgress.Listener.NONE);
            }
        }
        ManifestState state = ManifestReader.read(LocalFileLayer.INSTANCE, layout.manifestFile()).state();
        List<Long> gone = state.obsolete().stream().filter(id -> !Files.exists(layout.segmentFile(id))).toList();
        assertTrue(gone.size() < 60, gone.size() + " deleted segments still listed as obsolete: " + gone);
    }

    @Test
    void segmentsThatShareNoIdAreMovedNotRewrittenUntilAMergeTakesThem() throws Exception {
        RandomIntents gen = new RandomIntents(13, DIM);
        List<IntentId> ascending = gen.newIdsAscending(1200);
        Map<IntentId, Intent> model = new HashMap<>();
        Options moving = movingOptions();
        List<Path> flushed;
        List<SegmentMeta> before;
        try (TalaDB db = TalaDB.open(dir, moving)) {
            for (IntentId id : ascending) {
                Intent x = gen.next(id);
                db.put(x);
                model.put(id, x);
            }
            db.flush();
            flushed = segmentFileList(dir);
            before = db.liveSegments();
            assertTrue(flushed.size() >= 4, "several flushes: " + flushed);

            CompactionStats stats = db.compact(p -> { }).orElseThrow();
            assertTrue(stats.moved(), stats.toString());
            assertEquals(0, stats.outputBytes());
            assertEquals(flushed, segmentFileList(dir), "a move keeps every file and writes none");
            DbStats dbStats = db.stats();
            assertEquals(1, dbStats.compactionMoves());
            assertEquals(0, dbStats.compactionBytesWritten());
            assertMovedToLevel1(before, db.liveSegments());
            for (IntentId id : ascending) {
                assertEquals(Optional.of(model.get(id)), db.get(id));
            }
        }
        try (TalaDB db = TalaDB.open(dir, moving)) {
            assertTrue(db.recoveryReport().isClean(), db.recoveryReport().summary());
            assertMovedToLevel1(before, db.liveSegments());
            assertEquals(flushed, segmentFileList(dir));
            for (IntentId id : ascending) {
                assertEquals(Optional.of(model.get(id)), db.get(id), "after reopen");
            }
            for (int i = 0; i < 50; i++) {
                Intent x = gen.next(); // random ids: they fall among the moved segments' ranges
                db.put(x);
                model.put(x.id(), x);
            }
            db.flush();
            CompactionStats merge = db.compact(p -> { }).orElseThrow();
            assertFalse(merge.moved(), merge.toString());
            List<Path> left = segmentFileList(dir);
            for (int i = 0; i < 1000 && left.stream().anyMatch(flushed::contains); i++) {
                Thread.sleep(10);
                left = segmentFileList(dir);
            }
            assertTrue(left.stream().noneMatch(flushed::contains), "the merge deleted the moved files: " + left);
            for (Map.Entry<IntentId, Intent> e : model.entrySet()) {
                assertEquals(Optional.of(e.getValue()), db.get(e.getKey()));
            }
        }
    }

    /**
     * A snapshot taken before a move still maps the moved files through their old handles; a
     * later merge that takes the moved segments must not delete those files until it is closed.
     */
    @Test
    void aMovedFileOutlivesTheSnapshotsThatMapItUnderItsOldLabels() throws Exception {
        RandomIntents gen = new RandomIntents(14, DIM);
        List<IntentId> ascending = gen.newIdsAscending(1200);
        List<Intent> written = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, movingOptions())) {
            for (IntentId id : ascending) {
                Intent x = gen.next(id);
                db.put(x);
                written.add(x);
            }
            db.flush();
            List<Path> flushed = segmentFileList(dir);
            Snapshot before = db.snapshot();
            assertTrue(db.compact(p -> { }).orElseThrow().moved());
            for (int i = 0; i < 50; i++) {
                db.put(gen.next());
            }
            db.flush();
            assertFalse(db.compact(p -> { }).orElseThrow().moved());
            Thread.sleep(100); // the deletes run on a background thread: give a wrong one the time to happen
            assertTrue(segmentFileList(dir).containsAll(flushed), "the snapshot still maps every moved file");
            for (Intent x : written) {
                assertEquals(Optional.of(x), before.get(x.id()));
            }
            before.close();
            List<Path> left = segmentFileList(dir);
            for (int i = 0; i < 1000 && left.stream().anyMatch(flushed::contains); i++) {
                Thread.sleep(10);
                left = segmentFileList(dir);
            }
            assertTrue(left.stream().noneMatch(flushed::contains), "deleted once the snapshot let go: " + left);
        }
    }

    /** Compaction on request only, with a target small enough that the test's flushes may be moved. */
    private static Options movingOptions() {
        return options().backgroundCompaction(false).targetSegmentBytes(16 * 1024).build();
    }

    /** {@code after} is {@code before} at level 1 with one sequence range over all of them. */
    private static void assertMovedToLevel1(List<SegmentMeta> before, List<SegmentMeta> after) {
        long min = before.stream().mapToLong(SegmentMeta::minSequence).min().orElseThrow();
        long max = before.stream().mapToLong(SegmentMeta::maxSequence).max().orElseThrow();
        Map<Long, SegmentMeta> byId = new HashMap<>();
        after.forEach(m -> byId.put(m.id(), m));
        assertEquals(before.size(), after.size());
        for (SegmentMeta m : before) {
            SegmentMeta moved = byId.get(m.id());
            assertEquals(new SegmentMeta(m.id(), 1, m.fileSize(), m.rows(), m.tombstones(), m.minTimestamp(), m.maxTimestamp(), min, max,
                    false), moved, "segment " + m.id());
        }
    }

    private static List<Path> segmentFileList(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir.resolve("segments"))) {
            return s.sorted().toList();
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
