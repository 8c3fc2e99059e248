package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionProgress;
import dev.tala.compaction.CompactionStats;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.RecoveryReport;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an audit of every sync: a MANIFEST rewrite made while the database runs forgets the
 * obsolete ids whose files are gone, and syncs segments/ before it does (RECOVERY.md,
 * "Compaction"). The files are deleted on the obsolete-files thread, which syncs segments/
 * after it deletes; a rewrite that comes in between finds the files gone while their deletion is
 * not yet durable. A flush or a merging compaction syncs segments/ for its own output before its
 * edit, which would hide the rewrite's sync; a move writes no file, so its edit is the one that
 * shows it. Without the rewrite's sync, a power loss brought the deleted inputs back under ids no
 * edit named any more, and the next open moved them to lost/ as unlisted segments, where an
 * operator would look for data to restore. (ObsoleteSegmentsAfterKillTest covers the rewrite an
 * open makes.)
 */
class RunningRewriteForgetsDeletedInputsTest {
    private static final int ROWS = 30;

    @TempDir
    Path work;

    @Test
    void inputsDeletedBeforeAMoveRewritesTheManifestStayDeletedAfterAPowerLoss() throws Exception {
        Path dir = work.resolve("db");
        DatabaseLayout layout = new DatabaseLayout(dir);
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        HeldSyncAfterDelete held = new HeldSyncAfterDelete(fault);
        // Every edit is a rewrite (a limit of 1 byte), so the move's edit is one.
        TalaDB db = TalaDB.open(dir, options(held, 1));
        // Two flushes of the same ids, early in time, then one of other ids, later: a time-range
        // compaction of the first two merges them; a full compaction then finds the merged
        // segment and the third sharing no id, and moves them.
        putAll(db, 0, 1);
        db.flush();
        putAll(db, 0, 2);
        db.flush();
        putAll(db, 1_000, 3);
        db.flush();
        List<Long> inputIds = db.liveSegments().stream().skip(1).map(m -> m.id()).toList();
        held.watch(inputIds.stream().map(id -> key(layout.segmentFile(id))).collect(Collectors.toSet()));

        CompactionStats merge = db.compactRange(0, 1_000, CompactionProgress.Listener.NONE).orElseThrow();
        assertTrue(!merge.moved() && merge.inputSegments() == 2, "the first compaction merges two segments: " + merge);
        assertTrue(held.reached.await(10, TimeUnit.SECONDS), "the merged inputs were never deleted");
        assertTrue(inputIds.stream().noneMatch(id -> Files.exists(layout.segmentFile(id))));

        CompactionStats move = db.compact().orElseThrow();
        assertTrue(move.moved(), "the second compaction is a move: " + move);
        fault.powerLoss();
        held.release.countDown();
        try {
            db.close();
        } catch (RuntimeException powerOff) {
            // The power is off.
        }

        try (TalaDB after = TalaDB.open(dir, options(LocalFileLayer.INSTANCE, 64L << 20))) {
            List<RecoveryReport.Action> moved = after.recoveryReport().actions().stream()
                    .filter(a -> a.kind() == RecoveryReport.Action.Kind.MOVED_TO_LOST).toList();
            assertEquals(List.of(), moved, "deleted compaction inputs came back as unlisted segments");
            assertEquals(2 * ROWS, after.stats().intents());
        }
    }

    private static Path key(Path p) {
        return p.toAbsolutePath().normalize();
    }

    /** Puts ids {@code first .. first + ROWS - 1}, each with its timestamp equal to its id. */
    private static void putAll(TalaDB db, long first, int version) {
        for (long id = first; id < first + ROWS; id++) {
            db.put(Intent.builder().id(IntentId.of(id, 1)).timestampNs(id).command("v" + version)
                    .embedding(new float[] {1, id, version, 1}).build());
        }
    }

    private static Options options(FileLayer fs, long rewriteBytes) {
        return Options.builder().dimension(4).durability(Durability.sync()).memtableBytes(1 << 20)
                .targetSegmentBytes(4096).backgroundCompaction(false).manifestRewriteBytes(rewriteBytes)
                .fileLayer(fs).build();
    }

    /**
     * Holds the directory sync that follows the deletion of the last of the watched files, on the
     * thread that deleted it, until released: the moment between a delete and its sync, made long.
     * (The thread may delete and sync the inputs in more than one round.)
     */
    private static final class HeldSyncAfterDelete extends ForwardingFileLayer {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private volatile Set<Path> watched = Set.of();
        private final Set<Path> deleted = ConcurrentHashMap.newKeySet();
        private volatile Thread deleter;

        HeldSyncAfterDelete(FileLayer inner) {
            super(inner);
        }

        void watch(Set<Path> files) {
            watched = files;
        }

        @Override
        public void delete(Path file) throws IOException {
            super.delete(file);
            if (watched.contains(key(file)) && deleted.add(key(file)) && deleted.containsAll(watched)) {
                deleter = Thread.currentThread();
            }
        }

        @Override
        public void syncDirectory(Path dir) throws IOException {
            if (Thread.currentThread() == deleter) {
                reached.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            super.syncDirectory(dir);
        }
    }
}
