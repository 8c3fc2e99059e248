package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.error.StorageException;
import dev.tala.core.io.FileTrees;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator deletes a database directory while a process still has it open, and a new
 * database is made at the same path. The old instance must fail rather than create files in
 * the new database or delete its WAL files (it did both, and the new database lost its
 * acknowledged writes).
 */
class ReplacedDirectoryTest {
    private static final int DIM = 8;

    @TempDir
    Path tmp;

    @Test
    void anInstanceWhoseDirectoryWasReplacedTouchesNothingOfTheNewDatabase() throws Exception {
        Path dir = tmp.resolve("db");
        Options options = Options.builder().dimension(DIM).memtableBytes(32 * 1024)
                .durability(Durability.sync()).build();
        RandomIntents gen = new RandomIntents(4, DIM);
        TalaDB stale = TalaDB.open(dir, options);
        stale.put(gen.next());
        FileTrees.delete(dir);
        List<Intent> acknowledged = new ArrayList<>();
        try (TalaDB fresh = TalaDB.open(dir, options)) {
            for (int i = 0; i < 50; i++) {
                Intent x = gen.next();
                fresh.put(x);
                acknowledged.add(x);
            }
            // A flush starts a new WAL file first: refused, and the database is failed for it.
            DatabaseFailedException failed = assertThrows(DatabaseFailedException.class, stale::flush);
            assertTrue(String.valueOf(failed.getCause()).contains("LOCK is no longer the lock file"),
                    String.valueOf(failed.getCause()));
            assertTrue(stale.stats().failed(), "a failed rotation fails the database");
            // Enough writes to switch memtables and flush, had they been let through.
            assertThrows(DatabaseFailedException.class, () -> {
                for (int i = 0; i < 500; i++) {
                    stale.put(gen.next());
                }
            });
            stale.close();
        }
        try (TalaDB fresh = TalaDB.open(dir, options)) {
            assertEquals(acknowledged.size(), fresh.stats().intents(), fresh.recoveryReport().summary());
            for (Intent x : acknowledged) {
                assertEquals(Optional.of(x), fresh.get(x.id()));
            }
            assertEquals(0, fresh.stats().segments(), "the old instance flushed nothing into the new database");
        }
    }

    /**
     * Writes into files already open are not checked, so those made after the directory was
     * deleted are acknowledged and gone with it; close, at least, says so.
     */
    @Test
    void closeSaysWhenTheDirectoryWentAwayWhileOpen() throws Exception {
        Path dir = tmp.resolve("db");
        RandomIntents gen = new RandomIntents(5, DIM);
        TalaDB db = TalaDB.open(dir, Options.builder().dimension(DIM).durability(Durability.sync()).build());
        db.put(gen.next());
        FileTrees.delete(dir);
        db.put(gen.next());
        StorageException closing = assertThrows(StorageException.class, db::close);
        assertTrue(String.valueOf(closing.getCause()).contains("is gone: the database directory was deleted"),
                String.valueOf(closing.getCause()));
    }
}
