package dev.tala.engine.flush;

import static dev.tala.engine.PowerLossSteps.closeAfterPowerLoss;
import static dev.tala.engine.PowerLossSteps.putIds;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.RecoveryReport;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * From an audit of every sync: the WAL files a flush's edit made obsolete are retired (deleted,
 * or renamed aside for reuse) and wal/ is synced, and an open whose replay added nothing retires
 * the files it replayed the same way. Nothing else syncs wal/ until the next memtable switch, so
 * without those syncs a power loss after the flush (or the open) returned brought the retired
 * files back, and the next open found them below the log number and deleted them again. No
 * write is lost that way, which is why no invariant check saw the syncs go; but RECOVERY.md
 * says a crash after the retirement leaves recovery nothing to do, and these tests hold it to
 * that: the open after the power loss lists no action.
 */
class WalRetirementPowerLossTest {
    private static final int DIM = 8;
    private static final int INTENTS = 20;

    @TempDir
    Path work;

    /** The flush retires WAL file 1; an acknowledged write goes to file 2, which needs no directory sync. */
    @ParameterizedTest(name = "walRecycleFiles {0}")
    @ValueSource(ints = {0, 2})
    void walFilesAFlushRetiredStayRetiredAfterAPowerLoss(int recycleFiles) throws Exception {
        Path dir = work.resolve("db");
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        TalaDB db = TalaDB.open(dir, options(fault, recycleFiles));
        putIds(db, 0, INTENTS);
        db.flush();
        putIds(db, INTENTS, 1);
        fault.powerLoss();
        closeAfterPowerLoss(db);

        assertNothingLeftToDo(dir, recycleFiles, INTENTS + 1);
    }

    /**
     * A power loss leaves a WAL file holding only its header (the flush had just switched to it);
     * the next open replays nothing from it and retires it; a write follows; the power goes again.
     */
    @ParameterizedTest(name = "walRecycleFiles {0}")
    @ValueSource(ints = {0, 2})
    void walFilesAnOpenRetiredStayRetiredAfterAPowerLoss(int recycleFiles) throws Exception {
        Path dir = work.resolve("db");
        FaultInjectingFileLayer first = new FaultInjectingFileLayer(work.resolve("stash-1"));
        TalaDB db = TalaDB.open(dir, options(first, recycleFiles));
        putIds(db, 0, INTENTS);
        db.flush();
        first.powerLoss();
        closeAfterPowerLoss(db);

        FaultInjectingFileLayer second = new FaultInjectingFileLayer(work.resolve("stash-2"));
        db = TalaDB.open(dir, options(second, recycleFiles));
        assertEquals(0, db.recoveryReport().recordsReplayed(), "the open replays a WAL file that holds no record");
        putIds(db, INTENTS, 1);
        second.powerLoss();
        closeAfterPowerLoss(db);

        assertNothingLeftToDo(dir, recycleFiles, INTENTS + 1);
    }

    private void assertNothingLeftToDo(Path dir, int recycleFiles, int intents) {
        try (TalaDB after = TalaDB.open(dir, options(LocalFileLayer.INSTANCE, recycleFiles))) {
            List<RecoveryReport.Action> actions = after.recoveryReport().actions();
            assertEquals(List.of(), actions, "retired WAL files came back after the power loss");
            assertEquals(intents, after.stats().intents());
        }
    }

    private static Options options(FileLayer fs, int recycleFiles) {
        return Options.builder().dimension(DIM).durability(Durability.sync()).memtableBytes(1 << 20)
                .walRecycleFiles(recycleFiles).backgroundCompaction(false).fileLayer(fs).build();
    }
}
