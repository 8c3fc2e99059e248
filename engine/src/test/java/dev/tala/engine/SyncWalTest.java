package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TalaDB#syncWal} is a durability point for NONE durability: what was acknowledged before
 * it survives a power loss, what came after it (never forced) does not, and a failed force fails
 * the database as any failed force does.
 */
class SyncWalTest {
    private static final int DIM = 8;

    @TempDir
    Path work;

    @Test
    void writesBeforeSyncWalSurviveAPowerLossAndWritesAfterItDoNot() throws Exception {
        Path dir = work.resolve("db");
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        RandomIntents gen = new RandomIntents(3, DIM);
        List<Intent> synced = new ArrayList<>();
        List<Intent> after = new ArrayList<>();
        TalaDB db = TalaDB.open(dir, Options.builder().dimension(DIM).durability(Durability.none())
                .backgroundCompaction(false).fileLayer(fault).build());
        for (int i = 0; i < 20; i++) {
            synced.add(gen.next());
            db.put(synced.getLast());
        }
        db.syncWal();
        for (int i = 0; i < 5; i++) {
            after.add(gen.next());
            db.put(after.getLast());
        }
        fault.powerLoss(); // the process dies with the power: no close
        try (TalaDB again = TalaDB.open(dir, Options.builder().fileLayer(LocalFileLayer.INSTANCE).build())) {
            for (Intent x : synced) {
                assertEquals(x, again.get(x.id()).orElse(null), "acknowledged before syncWal()");
            }
            for (Intent x : after) {
                assertTrue(again.get(x.id()).isEmpty(), "nothing forced the writes after syncWal()");
            }
        }
    }

    @Test
    void aFailedSyncWalFailsTheDatabase() {
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        try (TalaDB db = TalaDB.open(work.resolve("db"), Options.builder().dimension(DIM)
                .durability(Durability.none()).backgroundCompaction(false).fileLayer(fault).build())) {
            db.put(new RandomIntents(4, DIM).next());
            fault.failForces(p -> true);
            assertThrows(DatabaseFailedException.class, db::syncWal);
            assertTrue(db.stats().failed());
            assertThrows(DatabaseFailedException.class, () -> db.put(new RandomIntents(5, DIM).next()));
        }
    }
}
