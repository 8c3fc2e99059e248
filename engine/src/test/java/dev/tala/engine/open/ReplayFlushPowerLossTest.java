package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.UnforcedWalFiles;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * (From a review) a process writing in NONE mode is killed: its WAL records are in the page
 * cache only. The next (writable) open replays them and, with a small memtable, flushes some
 * into level-0 segments. The power goes at the open's first force of a WAL file. Before the
 * replay forced the WAL files a segment's records come from before writing the segment, the
 * segments survived, unlisted, holding sequence numbers no durable WAL record or MANIFEST edit
 * reached, and the default (strict) mode of the next open took them for the proof of a damaged
 * MANIFEST edit and refused the database. Without replay flushes (the control), the same power
 * loss leaves a database that opens.
 */
class ReplayFlushPowerLossTest {
    private static final int DIM = 8;
    private static final int INTENTS = 800;

    @TempDir
    Path work;

    @Test
    void controlWithoutReplayFlushesOpensAfterThePowerLoss() throws Exception {
        assertTrue(run(1000, 1), "the open forced a file");
    }

    @Test
    void powerLossBetweenReplayFlushesAndTheWalRepairLeavesADatabaseThatOpens() throws Exception {
        assertTrue(run(1, 1), "the open forced a file");
    }

    /** The same at every force of the open: each segment's, the commit edit's, the WAL repair's. */
    @Test
    void powerLossAtAnyForceOfAnOpenThatFlushesLeavesADatabaseThatOpens() throws Exception {
        int k = 1;
        while (run(1, k)) {
            k++;
        }
        assertTrue(k > 10, "the open forced files " + (k - 1) + " times");
    }

    /**
     * @return whether the power went at the open's {@code crashAtForce}-th force (false: the
     *     open forced fewer files, and the sweep is over)
     */
    private boolean run(int maxImmutables, int crashAtForce) throws Exception {
        Path dir = work.resolve("db-" + maxImmutables + "-" + crashAtForce);
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash-" + maxImmutables + "-"
                + crashAtForce));
        Options base = Options.builder().dimension(DIM).backgroundCompaction(false).build();
        RandomIntents gen = new RandomIntents(7, DIM);
        // The first process: NONE mode, killed with its records only in the page cache.
        try (TalaDB db = TalaDB.open(dir, base.toBuilder().memtableBytes(64L << 20).durability(Durability.none())
                .fileLayer(new UnforcedWalFiles(fault)).build())) {
            for (int i = 0; i < INTENTS; i++) {
                db.put(gen.next());
            }
        }
        // The second open replays with a small memtable; the power goes at one of its forces.
        PowerLossAtForce crashing = new PowerLossAtForce(fault, crashAtForce);
        try {
            TalaDB.open(dir, base.toBuilder().memtableBytes(16 * 1024).maxImmutableMemtables(maxImmutables)
                    .fileLayer(crashing).build()).close();
        } catch (RuntimeException expected) {
            // the simulated machine is down
        }
        if (!crashing.crashed) {
            return false;
        }
        // After the reboot: the default recovery mode must open the database, and again after that.
        for (int open = 0; open < 2; open++) {
            try (TalaDB db = TalaDB.open(dir, base.toBuilder().fileLayer(LocalFileLayer.INSTANCE).build())) {
                assertTrue(db.stats().intents() <= INTENTS, db.stats().toString());
            }
        }
        return true;
    }

    /** Cuts the power at the {@code n}-th force through it, of any file. */
    private static final class PowerLossAtForce extends ForwardingFileLayer {
        private final FaultInjectingFileLayer fault;
        private final int n;
        private int forces;
        boolean crashed;

        PowerLossAtForce(FaultInjectingFileLayer fault, int n) {
            super(fault);
            this.fault = fault;
            this.n = n;
        }

        @Override
        protected void beforeForce(Path file) throws IOException {
            if (!crashed && ++forces == n) {
                crashed = true;
                fault.powerLoss();
                throw new UncheckedIOException(new IOException("power lost"));
            }
        }
    }
}
