package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers on three threads while background flushes, compactions, MANIFEST rewrites and WAL
 * retirements hit one transient fault (the k-th file operation after the open fails, as an I/O
 * error, a full disk or a failed force): reads keep their answers, and after a close or not and
 * a power loss (each mode in turn) every acknowledged write is there, no deleted id is back and
 * verify is clean. A write that threw may have happened or not.
 */
class ConcurrentTransientFaultTest {
    /** Every third operation in the long run, every fifteenth by default. */
    private static final int STEP = Boolean.getBoolean("tala.long") ? 3 : 15;

    private final AtomicLong fired = new AtomicLong();
    private final AtomicLong failedDatabases = new AtomicLong();
    private final AtomicLong compactions = new AtomicLong();

    @TempDir
    Path work;

    @Test
    void backgroundFaultsUnderConcurrentWritesLoseNothing() throws Exception {
        List<String> failures = new ArrayList<>();
        int points = 0;
        for (int k = 0; k < 600; k += STEP) {
            for (OneFaultFileLayer.Kind kind : OneFaultFileLayer.Kind.values()) {
                points++;
                run(k, kind, failures);
            }
        }
        System.out.println("concurrent transient faults: " + points + " runs, " + fired + " faults fired, "
                + failedDatabases + " failed the database, " + compactions + " compactions before them, "
                + failures.size() + " failures");
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    private void run(int k, OneFaultFileLayer.Kind kind, List<String> failures) throws Exception {
        Path root = work.resolve(kind + "-" + k);
        Path dir = root.resolve("db");
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(root.resolve("stash"));
        OneFaultFileLayer fs = new OneFaultFileLayer(fault, kind);
        Options options = Options.builder().dimension(8).durability(Durability.sync()).memtableBytes(8 * 1024)
                .targetSegmentBytes(8 * 1024).manifestRewriteBytes(16 * 1024).walRecycleFiles(k % 2).build();
        Ledger ledger = new Ledger();
        TalaDB db = TalaDB.open(dir, options.toBuilder().fileLayer(fs).build());
        fs.arm(k);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            Workload w = new Workload(1000L * k + t, 8);
            writers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 250; i++) {
                    Workload.Write write = w.next();
                    ledger.begin(write.effects());
                    try {
                        db.write(write.batch());
                    } catch (RuntimeException e) {
                        return; // left in flight: either outcome is allowed
                    }
                    ledger.acknowledge(write.effects());
                }
            }));
        }
        for (Thread t : writers) {
            t.join();
        }
        String where = kind + " at " + k + " [" + fs.failed() + "] ";
        if (fs.failed() != null) {
            fired.incrementAndGet();
            if (db.stats().failed()) {
                failedDatabases.incrementAndGet();
            }
            compactions.addAndGet(db.stats().compactions());
        }
        TransientFaultSweepTest.checkReads(db, ledger, where + "while running: ", failures);
        PowerLossMode mode = PowerLossMode.values()[(k / STEP) % PowerLossMode.values().length];
        if (k % 2 == 0) {
            PowerLossSweep.closeQuietly(db);
            fault.powerLoss(mode, k);
        } else {
            fault.powerLoss(mode, k);
            PowerLossSweep.closeQuietly(db);
        }
        try (TalaDB reopened = TalaDB.open(dir, options.toBuilder().fileLayer(LocalFileLayer.INSTANCE).build())) {
            TransientFaultSweepTest.checkReads(reopened, ledger, where + "after " + mode + ": ", failures);
        } catch (RuntimeException e) {
            failures.add(where + "did not reopen after " + mode + ": " + e);
            return;
        }
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        for (VerifyReport.Problem p : verify.problems()) {
            failures.add(where + "verify: " + p);
        }
        if (failures.isEmpty()) {
            PowerLossSweep.deleteTree(root);
        }
    }
}
