package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What close() reports. It forces the WAL, and a failed final force is reported even when the database had
 * already failed for another reason: a flush whose MANIFEST force failed leaves the log healthy,
 * holding acknowledged NONE writes that only that force makes durable. close() returned normally
 * in that case (an audit found it), and those writes were gone at the next power loss.
 */
class CloseReportTest {
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

    /** Fails MANIFEST forces and deletes of .wal files when armed. */
    static final class Faults extends ForwardingFileLayer {
        volatile boolean failManifestForce;
        volatile boolean failWalDelete;

        Faults() {
            super(LocalFileLayer.INSTANCE);
        }

        @Override
        protected void beforeForce(Path file) throws IOException {
            if (failManifestForce && file.getFileName().toString().startsWith("MANIFEST")) {
                throw new IOException("injected: MANIFEST force failed");
            }
        }

        @Override
        public void delete(Path file) throws IOException {
            if (failWalDelete && file.getFileName().toString().endsWith(".wal")) {
                throw new IOException("injected: cannot delete " + file);
            }
            super.delete(file);
        }
    }

    /**
     * A flush fails the database at its MANIFEST force; the WAL is healthy and its current file
     * (started by the flush's rotation) holds no record. close() forces it (that works), then
     * deleting the empty file fails. RECOVERY.md: "Other errors of a close are reported only
     * for a database that had not already failed". From a review: close said the final
     * force did not complete, and that acknowledged writes might not be durable.
     */
    @Test
    void aFailedDeleteOfTheEmptyWalFileAfterASuccessfulForceIsNotAFailedForce() {
        Faults fs = new Faults();
        TalaDB db = TalaDB.open(work.resolve("db"), Options.builder().dimension(DIM).durability(Durability.none())
                .backgroundCompaction(false).fileLayer(fs).build());
        RandomIntents gen = new RandomIntents(1, DIM);
        for (int i = 0; i < 10; i++) {
            db.put(gen.next());
        }
        fs.failManifestForce = true;
        try {
            db.flush();
        } catch (RuntimeException expected) {
            // the flush's MANIFEST force failed
        }
        assertTrue(db.stats().failed(), "the flush failed the database");
        fs.failWalDelete = true;
        RuntimeException closeError = null;
        try {
            db.close();
        } catch (RuntimeException e) {
            closeError = e;
        }
        assertTrue(closeError == null || !closeError.getMessage().contains("final force did not complete"),
                "the WAL's force succeeded (its file holds no record); close reported: " + closeError);
    }

    /**
     * The database directory is moved away while open (lock lost); the WAL's current file holds
     * no record. close() forces it, then the lock-checking layer refuses to delete it. The
     * report must not blame the WAL's final force, which completed (a review found it did).
     */
    @Test
    void aLostLockAtCloseIsNotReportedAsAFailedWalForce() throws IOException {
        Path dir = work.resolve("db");
        TalaDB db = TalaDB.open(dir, Options.builder().dimension(DIM).durability(Durability.none())
                .backgroundCompaction(false).build());
        RandomIntents gen = new RandomIntents(2, DIM);
        for (int i = 0; i < 10; i++) {
            db.put(gen.next());
        }
        db.flush(); // everything in a segment; the current WAL file is empty
        assertFalse(db.stats().failed());
        Files.move(dir, work.resolve("moved"));
        RuntimeException closeError = null;
        try {
            db.close();
        } catch (RuntimeException e) {
            closeError = e;
        }
        assertTrue(closeError != null, "a lost lock is reported");
        assertFalse(closeError.getMessage().contains("final force did not complete"),
                "the WAL's force completed; close reported: " + closeError + " caused by " + closeError.getCause());
    }

    /**
     * TalaDB.open flushes after a skip-corrupted replay; when that flush fails it calls close()
     * and rethrows the flush's error; a failing close must not replace it (a review found the
     * caller saw only close's error, not why the open failed).
     */
    @Test
    void aFailedOpenFlushIsNotMaskedByClose() throws IOException {
        Path dir = work.resolve("db");
        RandomIntents gen = new RandomIntents(3, DIM);
        try (TalaDB db = TalaDB.open(dir, Options.builder().dimension(DIM).durability(Durability.none())
                .backgroundCompaction(false).build())) {
            for (int i = 0; i < 3; i++) {
                db.put(gen.next());
            }
        }
        Path wal;
        try (var s = Files.list(dir.resolve("wal"))) {
            wal = s.filter(p -> p.toString().endsWith(".wal")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(wal);
        bytes[16 + 21 + 20] ^= 0x40; // inside the first record's payload
        Files.write(wal, bytes);
        Faults fs = new Faults();
        fs.failManifestForce = true;
        fs.failWalDelete = true;
        RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> TalaDB.open(dir, Options.builder().recoveryMode(dev.tala.wal.WalRecoveryMode.SKIP_CORRUPTED)
                        .backgroundCompaction(false).fileLayer(fs).build()).close());
        StringBuilder chain = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            chain.append(" <- ").append(t);
        }
        assertTrue(chain.toString().contains("MANIFEST force failed"),
                "the open's flush failed at the MANIFEST force; the open threw instead:" + chain);
    }
}
