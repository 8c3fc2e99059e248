package dev.tala.engine;

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
 * close() forces the WAL, and a failed final force is reported even when the database had
 * already failed for another reason: a flush whose MANIFEST force failed leaves the log healthy,
 * holding acknowledged NONE writes that only that force makes durable. close() returned normally
 * in that case (an audit found it), and those writes were gone at the next power loss.
 */
class CloseAfterFailedFlushTest {
    private static final int DIM = 8;

    @TempDir
    Path work;

    @Test
    void closeReportsAFailedFinalWalForceAfterAFlushFailure() throws Exception {
        Path dir = work.resolve("db");
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        RandomIntents gen = new RandomIntents(11, DIM);
        List<Intent> acked = new ArrayList<>();
        TalaDB db = TalaDB.open(dir, Options.builder().dimension(DIM).durability(Durability.none())
                .memtableBytes(8192).backgroundCompaction(false).fileLayer(fault).build());
        for (int i = 0; i < 10; i++) {
            Intent x = gen.next();
            db.put(x);
            acked.add(x);
        }
        // A background flush fails at its MANIFEST force; writes acknowledged meanwhile (NONE:
        // handed to the OS) are in the new WAL file, unforced.
        fault.failForces(p -> p.getFileName().toString().startsWith("MANIFEST"));
        assertThrows(DatabaseFailedException.class, () -> {
            for (int i = 0; i < 5000; i++) {
                Intent x = gen.next();
                db.put(x);
                acked.add(x);
            }
        });
        assertTrue(db.stats().failed());
        // close() "forces the WAL": make that force fail.
        fault.failForces(p -> true);
        RuntimeException closeError = null;
        try {
            db.close();
        } catch (RuntimeException e) {
            closeError = e;
        }
        fault.powerLoss();
        int lost = 0;
        try (TalaDB again = TalaDB.open(dir, Options.builder().dimension(DIM).fileLayer(LocalFileLayer.INSTANCE)
                .build())) {
            for (Intent x : acked) {
                if (again.get(x.id()).isEmpty()) {
                    lost++;
                }
            }
        }
        assertTrue(closeError != null, "close() returned normally although its force of the WAL failed; "
                + lost + " of " + acked.size() + " writes acknowledged before close were lost at the next power loss");
        assertTrue(closeError.getMessage().contains("the WAL's final force did not complete"), closeError.getMessage());
    }
}
