package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.StorageException;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.DbStats;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WAL can hold more than one memtable's worth of records: a crash while frozen memtables wait
 * for their flushes, or an open with a smaller memtable size than the writes had. Replay fills
 * memtables of the configured size, as the writes would have, so that each can be flushed; one
 * memtable holding the whole WAL could outgrow what a flush can write and fail every open.
 */
class LongReplayTest {
    private static final int DIM = 8;
    private static final long SMALL_MEMTABLE = 16 * 1024;

    @TempDir
    Path dir;

    /** Where the fault-injecting layer keeps deleted files; outside the database directory. */
    @TempDir
    Path stash;

    private static Options.Builder options(long memtableBytes) {
        return Options.builder().dimension(DIM).memtableBytes(memtableBytes).durability(Durability.none())
                .backgroundCompaction(false);
    }

    @Test
    void aWalHoldingManyMemtablesIsReplayedIntoMemtablesOfTheConfiguredSize() throws Exception {
        Written written = fillWalOnly(21);
        long walBytes;
        try (TalaDB db = TalaDB.open(dir, options(SMALL_MEMTABLE).build())) {
            assertModel(written, db, "right after replay");
            db.flush();
            DbStats stats = db.stats();
            walBytes = stats.walBytesLogged();
            assertTrue(stats.flushes() >= 10, "the replayed WAL was flushed in memtables of about "
                    + SMALL_MEMTABLE + " bytes: " + stats);
            assertTrue(stats.walFiles() <= 2, "flushes retired the replayed WAL files: " + stats);
        }
        try (TalaDB db = TalaDB.open(dir, options(SMALL_MEMTABLE).build())) {
            assertModel(written, db, "after the flushes and a reopen");
        }
        assertEquals(0, walBytes, "the replay logged nothing new");
    }

    /**
     * The replay holds no more frozen memtables than writers may leave waiting: past that, the
     * oldest is flushed during the open, so the memory an open needs follows the memtable size,
     * not the length of the log (before, every memtable of the log stayed in memory until the
     * open returned, and a log written with a large memtable could not be opened in a heap that
     * ran the database with a small one).
     */
    @Test
    void replayFlushesOnceMoreMemtablesWaitThanWritersMayLeave() throws Exception {
        Written written = fillWalOnly(22);
        Options small = options(SMALL_MEMTABLE).maxImmutableMemtables(1).build();
        try (TalaDB db = TalaDB.open(dir, small)) {
            DbStats stats = db.stats();
            assertTrue(stats.frozenMemtables() <= 1, "frozen memtables right after the open: " + stats);
            assertTrue(stats.memtableBytes() <= 3 * SMALL_MEMTABLE, "memtable bytes right after the open: " + stats);
            assertTrue(stats.flushes() >= 10, "the open flushed the replayed memtables: " + stats);
            // (From a review) the report counts the segments the open's own edit listed; it counted 0.
            int reported = db.recoveryReport().liveSegments();
            assertTrue(reported >= 10 && reported <= stats.segments(), db.recoveryReport().headline() + "; " + stats);
            assertModel(written, db, "right after a replay that flushed");
        }
        assertEquals(List.of(), lost(), "nothing was set aside");
        try (TalaDB db = TalaDB.open(dir, small)) {
            assertTrue(db.recoveryReport().isClean(), db.recoveryReport().summary());
            assertModel(written, db, "after a reopen");
        }
    }

    /**
     * An open that fails after the replay flushed some memtables (the disk fills) lists none of
     * them and removes their files: the WAL still holds every record, and the next open, with
     * room on the disk, replays it all and sets nothing aside.
     */
    @Test
    void anOpenThatFailsAfterReplayFlushesRemovesTheirSegments() throws Exception {
        Written written = fillWalOnly(23);
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(stash);
        fault.diskFullAfter(4 * SMALL_MEMTABLE);
        Options small = options(SMALL_MEMTABLE).maxImmutableMemtables(1).build();
        assertThrows(StorageException.class, () -> TalaDB.open(dir, small.toBuilder().fileLayer(fault).build()));
        assertEquals(List.of(), files(new DatabaseLayout(dir).segmentDir()), "segments of the failed open");
        try (TalaDB db = TalaDB.open(dir, small)) {
            assertModel(written, db, "after the failed open");
        }
        assertEquals(List.of(), lost(), "nothing was set aside");
    }

    /**
     * (From a review) the same, where the failure is the directory sync after a segment was
     * written: that segment was complete but not yet known to the replay, stayed, and the next
     * open set it aside in lost/.
     */
    @Test
    void aSegmentWhoseDirectorySyncFailsIsRemovedWithTheOthers() throws Exception {
        Written written = fillWalOnly(41);
        DatabaseLayout layout = new DatabaseLayout(dir);
        ForwardingFileLayer failSecondSegmentSync = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            int segmentSyncs;

            @Override
            public void syncDirectory(Path d) throws IOException {
                if (d.equals(layout.segmentDir()) && ++segmentSyncs == 2) {
                    throw new IOException("Input/output error (simulated) syncing " + d);
                }
                super.syncDirectory(d);
            }
        };
        Options small = options(SMALL_MEMTABLE).maxImmutableMemtables(1).build();
        assertThrows(StorageException.class, () -> TalaDB.open(dir, small.toBuilder()
                .fileLayer(failSecondSegmentSync).build()));
        assertEquals(List.of(), files(layout.segmentDir()), "segments of the failed open");
        try (TalaDB db = TalaDB.open(dir, small)) {
            assertModel(written, db, "after the failed open");
        }
        assertEquals(List.of(), lost(), "nothing was set aside");
    }

    /**
     * (From a review) the edit listing the replay's segments fails at its force (EIO). Its bytes
     * are in the MANIFEST all the same (a failed fsync does not take back what write() put in
     * the page cache), so the segments it lists must stay. Before, the failed open deleted them,
     * and the next open, on the same machine without any power loss, found a MANIFEST listing
     * missing segments and refused the database.
     */
    @Test
    void aCommitWhoseForceFailsDoesNotDeleteTheSegmentsItsEditMayList() {
        Written written = fillWalOnly(31);
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(stash);
        fault.failForces(p -> p.getFileName().toString().equals("MANIFEST"));
        Options small = options(SMALL_MEMTABLE).maxImmutableMemtables(1).build();
        assertThrows(StorageException.class, () -> TalaDB.open(dir, small.toBuilder().fileLayer(fault).build()),
                "the commit edit's force fails");
        // No power loss: the process simply opens again (the failed edit's bytes are in the file).
        try (TalaDB db = TalaDB.open(dir, small)) {
            assertModel(written, db, "after the failed commit");
        }
    }

    /**
     * The replay's edit records the last sequence number of the last memtable it flushed: the
     * next open replays the WAL files it kept from there, and the oldest of them starts inside
     * that memtable when the memtable spans a file boundary. A smaller number (the memtable's
     * first sequence) left a gap below the oldest kept record, and an open after a crash that
     * came before the background flush of the memtable still frozen refused the database as a
     * MANIFEST that lost edits. Here every WAL file holds a few records, so every replayed
     * memtable spans files, and the flush after the open never writes its segment.
     */
    @Test
    void anOpenAfterACrashFollowingAReplayThatFlushedFindsNoGapBelowTheKeptWalFiles() throws Exception {
        RandomIntents gen = new RandomIntents(51, DIM);
        Map<IntentId, Intent> model = new LinkedHashMap<>();
        List<IntentId> ids = new ArrayList<>();
        // Each open starts a WAL file and closing flushes nothing: 40 files of 25 records.
        for (int file = 0; file < 40; file++) {
            try (TalaDB db = TalaDB.open(dir, options(64L * 1024 * 1024).build())) {
                for (int i = 0; i < 25; i++) {
                    Intent x = gen.next();
                    db.put(x);
                    model.put(x.id(), x);
                    ids.add(x.id());
                }
            }
        }
        DatabaseLayout layout = new DatabaseLayout(dir);
        Thread opener = Thread.currentThread();
        // The replay's flushes run on the opening thread; the background flush, which would list
        // the memtable left frozen and hide the edit's number, dies as in a crash.
        ForwardingFileLayer noFlushAfterOpen = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public WritableFile create(Path file) throws IOException {
                if (file.getParent().equals(layout.segmentDir()) && Thread.currentThread() != opener) {
                    throw new IOException("simulated crash before the flush that follows the open");
                }
                return super.create(file);
            }
        };
        Options small = options(SMALL_MEMTABLE).maxImmutableMemtables(1).build();
        try (TalaDB db = TalaDB.open(dir, small.toBuilder().fileLayer(noFlushAfterOpen).build())) {
            assertTrue(db.stats().flushes() >= 3, "the open flushed the replayed memtables: " + db.stats());
            assertModel(new Written(model, ids), db, "right after a replay that flushed");
        }
        try (TalaDB db = TalaDB.open(dir, small)) {
            assertModel(new Written(model, ids), db, "after the crash");
        }
    }

    /** What {@link #fillWalOnly} wrote: the expected state of every id it touched. */
    private record Written(Map<IntentId, Intent> model, List<IntentId> ids) {
    }

    /** Writes with a 64 MiB memtable and closes, leaving everything in the WAL. */
    private Written fillWalOnly(long seed) {
        RandomIntents gen = new RandomIntents(seed, DIM);
        Map<IntentId, Intent> model = new LinkedHashMap<>();
        List<IntentId> ids = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options(64L * 1024 * 1024).build())) {
            for (int i = 0; i < 3000; i++) {
                Intent x = gen.next();
                db.put(x);
                model.put(x.id(), x);
                ids.add(x.id());
                // Outcomes and deletes reach back across what replay will make memtable boundaries.
                if (i % 5 == 4) {
                    IntentId old = ids.get(gen.random().nextInt(ids.size()));
                    if (model.containsKey(old)) {
                        Outcome outcome = new Outcome(i, 1);
                        db.attachOutcome(old, Status.SUCCESS, outcome);
                        model.put(old, model.get(old).withOutcome(Status.SUCCESS, outcome));
                    }
                }
                if (i % 11 == 10) {
                    IntentId victim = ids.get(gen.random().nextInt(ids.size()));
                    db.delete(victim);
                    model.remove(victim);
                }
            }
            assertEquals(0, db.stats().segments(), "everything is still in the WAL");
        }
        return new Written(model, ids);
    }

    private List<Path> lost() throws IOException {
        return files(new DatabaseLayout(dir).lostDir());
    }

    private static List<Path> files(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            List<Path> found = new ArrayList<>();
            entries.forEach(found::add);
            return found;
        }
    }

    private static void assertModel(Written written, TalaDB db, String when) {
        for (IntentId id : written.ids()) {
            assertEquals(Optional.ofNullable(written.model().get(id)), db.get(id), when + ": " + id);
        }
    }
}
