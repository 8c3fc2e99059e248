package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.UnforcedWalFiles;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process writing without sync dies with its WAL records only in the page cache; the next
 * process opens, replays them and writes SYNC records to a new WAL file; then the power goes.
 * The open must have forced what it replayed, or the older file's lost tail is corruption
 * and the database, with the acknowledged SYNC writes in it, does not open.
 */
class KillThenPowerLossTest {
    static final int DIM = 8;

    @TempDir
    Path work;

    @Test
    void whatAnOpenReplayedIsDurableBeforeItWritesAfterIt() throws Exception {
        Path dir = work.resolve("db");
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        Options options = Options.builder().dimension(DIM).memtableBytes(64L << 20).build();
        RandomIntents gen = new RandomIntents(5, DIM);
        // The first process: its WAL records never reach a force (as after a kill in NONE mode).
        try (TalaDB db = TalaDB.open(dir, options.toBuilder().durability(Durability.none())
                .fileLayer(new UnforcedWalFiles(fault)).build())) {
            for (int i = 0; i < 20; i++) {
                db.put(gen.next());
            }
        }
        List<Intent> acknowledged = new ArrayList<>();
        TalaDB second = TalaDB.open(dir, options.toBuilder().durability(Durability.sync()).fileLayer(fault).build());
        for (int i = 0; i < 5; i++) {
            Intent x = gen.next();
            second.put(x);
            acknowledged.add(x);
        }
        fault.powerLoss();
        try {
            second.close();
        } catch (RuntimeException e) {
            // the simulated machine is down
        }
        try (TalaDB again = TalaDB.open(dir, options.toBuilder().fileLayer(LocalFileLayer.INSTANCE).build())) {
            for (Intent x : acknowledged) {
                assertEquals(Optional.of(x), again.get(x.id()));
            }
        }
    }
}
