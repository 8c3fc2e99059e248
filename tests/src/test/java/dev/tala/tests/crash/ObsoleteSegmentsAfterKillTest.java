package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.RecoveryReport;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * From an audit of docs/RECOVERY.md against the code: a process is killed after its compaction's
 * inputs were deleted and before segments/ was synced. The next open may rewrite the MANIFEST
 * (here, with a rewrite size of 1 byte, it must), and the rewrite forgets the obsolete ids; it did
 * so without syncing segments/, so a power loss brought the inputs back under ids no edit names,
 * and the open after it moved them to lost/ as unlisted segments, where an operator would look
 * for data to restore. With the rewrite's sync, they stay deleted, as without a rewrite.
 */
class ObsoleteSegmentsAfterKillTest {
    private static final long NO_REWRITE = 64L << 20;

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(longs = {1, NO_REWRITE})
    void deletedInputsStayDeletedThroughAKillAnOpenAndAPowerLoss(long rewriteBytesAtTheOpen) throws Exception {
        Path dir = work.resolve("db");
        DatabaseLayout layout = new DatabaseLayout(dir);
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        RandomIntents gen = new RandomIntents(7, 8);
        TalaDB first = TalaDB.open(dir, options(fault, 1));
        for (int flush = 0; flush < 3; flush++) {
            for (int i = 0; i < 10; i++) {
                first.put(gen.next());
            }
            first.flush();
        }
        List<Path> inputs = first.liveSegments().stream().map(m -> layout.segmentFile(m.id())).toList();
        String syncSegments = "fsync-dir " + layout.segmentDir();
        AtomicInteger syncs = new AtomicInteger();
        // The first sync of segments/ is for the compaction's output; the crash comes before
        // the one after the inputs are deleted.
        fault.crashBefore(op -> op.equals(syncSegments) && syncs.incrementAndGet() >= 2
                && inputs.stream().noneMatch(Files::exists));
        first.compact();
        for (int i = 0; i < 500 && !fault.hasCrashed(); i++) {
            Thread.sleep(10);
        }
        assertTrue(fault.hasCrashed(), "the deletion of the inputs never reached its directory sync");
        try {
            first.close();
        } catch (RuntimeException killed) {
            // The process is dead: nothing it does from here reaches the disk.
        }
        fault.kill();

        TalaDB second = TalaDB.open(dir, options(fault, rewriteBytesAtTheOpen));
        fault.powerLoss();
        try {
            second.close();
        } catch (RuntimeException powerOff) {
            // The power is off.
        }
        try (TalaDB third = TalaDB.open(dir, options(LocalFileLayer.INSTANCE, NO_REWRITE))) {
            List<RecoveryReport.Action> moved = third.recoveryReport().actions().stream()
                    .filter(a -> a.kind() == RecoveryReport.Action.Kind.MOVED_TO_LOST).toList();
            assertEquals(List.of(), moved, "deleted compaction inputs came back as unlisted segments");
            assertEquals(30, third.stats().intents());
        }
    }

    private static Options options(FileLayer fs, long rewriteBytes) {
        return Options.builder().dimension(8).durability(Durability.sync()).memtableBytes(1 << 20)
                .backgroundCompaction(false).manifestRewriteBytes(rewriteBytes).fileLayer(fs).build();
    }
}
