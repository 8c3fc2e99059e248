package dev.tala.engine.flush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.DbStats;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush whose segment is listed but whose obsolete WAL files cannot be removed has lost
 * nothing: the database stays writable, and the next flush removes them (as LevelDB and RocksDB
 * only log a failed removal of obsolete files). Before, the failure put the database into its
 * failed, read-only state. A directory replaced while open still fails it (ReplacedDirectoryTest).
 */
class WalCleanupFailureTest {
    private static final int DIM = 8;

    @TempDir
    Path dir;

    /** Refuses to delete WAL files while {@code refuse} is set. */
    private static final class RefusingWalDeletes extends ForwardingFileLayer {
        volatile boolean refuse = true;
        int refused;

        RefusingWalDeletes() {
            super(LocalFileLayer.INSTANCE);
        }

        @Override
        public void delete(Path file) throws IOException {
            if (refuse && file.getFileName().toString().endsWith(".wal")) {
                refused++;
                throw new IOException("injected: cannot delete " + file);
            }
            super.delete(file);
        }
    }

    @Test
    void aFailedWalRemovalAfterAFlushIsRetriedByTheNextFlush() throws Exception {
        RefusingWalDeletes layer = new RefusingWalDeletes();
        Options options = Options.builder().dimension(DIM).memtableBytes(64 * 1024).durability(Durability.none())
                .walRecycleFiles(0).backgroundCompaction(false).fileLayer(layer).build();
        RandomIntents gen = new RandomIntents(3, DIM);
        List<Intent> written = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options)) {
            for (int i = 0; i < 300; i++) {
                Intent x = gen.next();
                db.put(x);
                written.add(x);
            }
            db.flush();
            DbStats stuck = db.stats();
            assertTrue(layer.refused > 0, "the flush tried to remove a WAL file");
            assertFalse(stuck.failed(), "a WAL file left behind failed the database: " + stuck);
            assertTrue(stuck.walFiles() > 1, "the obsolete WAL files are still there: " + stuck);

            Intent after = gen.next();
            db.put(after);
            written.add(after);
            layer.refuse = false;
            db.flush();
            DbStats cleaned = db.stats();
            assertFalse(cleaned.failed(), cleaned.toString());
            assertEquals(1, cleaned.walFiles(), "the next flush removed the files left behind: " + cleaned);
        }
        try (TalaDB db = TalaDB.open(dir, options)) {
            for (Intent x : written) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
        }
    }
}
