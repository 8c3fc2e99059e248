package dev.tala.engine.open;

import static dev.tala.engine.PowerLossSteps.closeAfterPowerLoss;
import static dev.tala.engine.PowerLossSteps.putIds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.RecoveryReport;
import dev.tala.recovery.RecoveryReport.Action.Kind;
import dev.tala.wal.Durability;
import dev.tala.wal.WalRecoveryMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an audit of every sync: what an open repairs must stay repaired through a power loss
 * after it, when nothing later in the open makes the repair durable by the way. Each test has
 * an open repair something (through the fault-injecting layer), acknowledge a SYNC write, lose
 * the power, and open again: the database opens with every write, and the last open finds
 * nothing left to do (or, for a copy into lost/, finds the copy whole). Before these tests, no
 * test failed when any one of the forces and syncs they cover was removed (but the sync of the
 * directory a move to lost/ leaves, which PointInTimeRepairCrashTest needs): none lost the power
 * after the open that repaired.
 */
class DurableOpenRepairsTest {
    private static final int DIM = 8;
    private static final int INTENTS = 10;

    @TempDir
    Path work;

    /**
     * The open cuts a torn tail off the newest WAL file, then starts a newer one and acknowledges a
     * write there. Without the force after the cut, the power loss brought the torn bytes back,
     * now at the end of a file that is no longer the newest: damage, not a torn tail, and the
     * default mode refused to open the database (RECOVERY.md, open step 7).
     */
    @Test
    void aTornWalTailTheOpenCutStaysCutAfterAPowerLoss() throws Exception {
        Path dir = work.resolve("db");
        DatabaseLayout layout = new DatabaseLayout(dir);
        FaultInjectingFileLayer first = new FaultInjectingFileLayer(work.resolve("stash-1"));
        TalaDB db = TalaDB.open(dir, options(first));
        putIds(db, 0, INTENTS);
        first.powerLoss();
        closeAfterPowerLoss(db);
        // A write the power cut in the middle: bytes after the last record that make no record.
        List<Path> walFiles = LocalFileLayer.INSTANCE.list(layout.walDir());
        byte[] torn = new byte[37];
        Arrays.fill(torn, (byte) 0x5a);
        Files.write(walFiles.getLast(), torn, StandardOpenOption.APPEND);

        FaultInjectingFileLayer second = new FaultInjectingFileLayer(work.resolve("stash-2"));
        db = TalaDB.open(dir, options(second));
        assertTrue(kinds(db.recoveryReport()).contains(Kind.TRUNCATED_WAL_TAIL), db.recoveryReport().summary());
        putIds(db, INTENTS, 1);
        second.powerLoss();
        closeAfterPowerLoss(db);

        assertOpensWithNothingToDo(dir, INTENTS + 1);
    }

    /**
     * The last process died after its compaction's edit and before it deleted the inputs; the
     * open deletes them as obsolete and syncs segments/. Without that sync (no later step of the
     * open syncs segments/ unless it rewrites the MANIFEST), the power loss brought them back,
     * to be deleted again by the next open.
     */
    @Test
    void obsoleteSegmentsTheOpenDeletedStayDeletedAfterAPowerLoss() throws Exception {
        Path dir = work.resolve("db");
        DatabaseLayout layout = new DatabaseLayout(dir);
        FaultInjectingFileLayer first = new FaultInjectingFileLayer(work.resolve("stash-1"));
        TalaDB db = TalaDB.open(dir, options(first));
        for (int flush = 0; flush < 3; flush++) {
            putIds(db, flush * INTENTS, INTENTS);
            db.flush();
        }
        String deleteSegment = "delete " + layout.segmentDir().toAbsolutePath().normalize();
        first.crashBefore(op -> op.startsWith(deleteSegment));
        db.compact();
        for (int i = 0; i < 500 && !first.hasCrashed(); i++) {
            Thread.sleep(10);
        }
        assertTrue(first.hasCrashed(), "the compaction's inputs were never deleted");
        first.powerLoss();
        closeAfterPowerLoss(db);

        FaultInjectingFileLayer second = new FaultInjectingFileLayer(work.resolve("stash-2"));
        db = TalaDB.open(dir, options(second));
        assertEquals(3, kinds(db.recoveryReport()).stream().filter(k -> k == Kind.DELETED_OBSOLETE_SEGMENT).count(),
                db.recoveryReport().summary());
        putIds(db, 3 * INTENTS, 1);
        second.powerLoss();
        closeAfterPowerLoss(db);

        assertOpensWithNothingToDo(dir, 3 * INTENTS + 1);
    }

    /**
     * The last process died after its flush's segment was complete and named and before the
     * MANIFEST edit listing it: the open moves the segment to lost/ (its records are in the
     * WAL) and syncs lost/ and segments/. Without the sync of lost/ (which a point-in-time open
     * makes again for its copy, but this open does not), the power loss undid the move, and the
     * next open found the segment unlisted in segments/ and moved it again.
     */
    @Test
    void anUnlistedSegmentTheOpenMovedToLostStaysThereAfterAPowerLoss() throws Exception {
        Path dir = work.resolve("db");
        DatabaseLayout layout = new DatabaseLayout(dir);
        FaultInjectingFileLayer first = new FaultInjectingFileLayer(work.resolve("stash-1"));
        TalaDB db = TalaDB.open(dir, options(first));
        putIds(db, 0, INTENTS);
        String appendEdit = "append " + layout.manifestFile().toAbsolutePath().normalize();
        first.crashBefore(op -> op.startsWith(appendEdit));
        assertThrows(RuntimeException.class, db::flush);
        assertTrue(first.hasCrashed(), "the flush never reached its MANIFEST edit");
        first.powerLoss();
        closeAfterPowerLoss(db);

        FaultInjectingFileLayer second = new FaultInjectingFileLayer(work.resolve("stash-2"));
        db = TalaDB.open(dir, options(second));
        assertEquals(List.of(Kind.MOVED_TO_LOST), kinds(db.recoveryReport()), db.recoveryReport().summary());
        putIds(db, INTENTS, 1);
        second.powerLoss();
        closeAfterPowerLoss(db);

        assertOpensWithNothingToDo(dir, INTENTS + 1);
    }

    /**
     * A point-in-time open stops at a damaged record of the newest WAL file: it copies the file
     * whole into lost/ (a new directory), then cuts it at the stop, and the copy is all that is
     * left of the records after the stop. The copy's force, its rename's sync and the sync that
     * makes lost/ itself durable each keep it through a power loss after the open; without any
     * one of them the cut survived and the copy did not (empty, or gone with its directory).
     */
    @Test
    void aWalFileCopiedIntoLostBeforeItsCutIsThereWholeAfterAPowerLoss() throws Exception {
        Path dir = work.resolve("db");
        DatabaseLayout layout = new DatabaseLayout(dir);
        try (TalaDB db = TalaDB.open(dir, options(LocalFileLayer.INSTANCE))) {
            putIds(db, 0, INTENTS);
        }
        Path wal = LocalFileLayer.INSTANCE.list(layout.walDir()).getLast();
        byte[] damaged = Files.readAllBytes(wal);
        damaged[damaged.length / 2] ^= 0x10; // inside a record in the middle of the file
        Files.write(wal, damaged);

        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        TalaDB db = TalaDB.open(dir, options(fault).toBuilder().recoveryMode(WalRecoveryMode.POINT_IN_TIME).build());
        long kept = db.stats().intents();
        assertTrue(kept > 0 && kept < INTENTS, "the stop is in the middle of the file: " + kept + " intents kept");
        assertTrue(Files.exists(layout.lostDir().resolve(wal.getFileName())), db.recoveryReport().summary());
        putIds(db, INTENTS, 1);
        fault.powerLoss();
        closeAfterPowerLoss(db);

        Path copy = layout.lostDir().resolve(wal.getFileName());
        assertTrue(Files.exists(copy), "the copy of " + wal.getFileName() + " in lost/ is gone");
        assertArrayEquals(damaged, Files.readAllBytes(copy), "lost/ keeps the file as it was");
        assertOpensWithNothingToDo(dir, (int) kept + 1);
    }

    private static void assertOpensWithNothingToDo(Path dir, int intents) {
        try (TalaDB after = TalaDB.open(dir, options(LocalFileLayer.INSTANCE))) {
            assertEquals(List.of(), after.recoveryReport().actions(), "a repair of the open before the power loss"
                    + " was undone by it");
            assertEquals(intents, after.stats().intents());
        }
    }

    private static List<Kind> kinds(RecoveryReport report) {
        return report.actions().stream().map(RecoveryReport.Action::kind).toList();
    }

    /** A MANIFEST this small is appended to, not rewritten: a rewrite would sync segments/ itself. */
    private static Options options(FileLayer fs) {
        return Options.builder().dimension(DIM).durability(Durability.sync()).memtableBytes(1 << 20)
                .backgroundCompaction(false).fileLayer(fs).build();
    }
}
