package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.core.error.StorageException;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * (From a review) the replay's commit edit fails at its force (EIO). The edit's bytes are in
 * the MANIFEST file all the same (a failed fsync does not take back what write() put in the
 * page cache), so the segments it lists must stay. Before, the failed open deleted them, and
 * the next open, on the same machine without any power loss, found a MANIFEST listing missing
 * segments and refused the database.
 */
class ReplayFlushCommitFailureTest {
    private static final int DIM = 8;
    private static final long SMALL_MEMTABLE = 16 * 1024;

    @TempDir
    Path dir;

    private static Options.Builder options(long memtableBytes) {
        return Options.builder().dimension(DIM).memtableBytes(memtableBytes).durability(Durability.none())
                .backgroundCompaction(false);
    }

    @Test
    void aCommitWhoseForceFailsDoesNotDeleteTheSegmentsItsEditMayList() {
        Map<IntentId, Intent> model = new LinkedHashMap<>();
        RandomIntents gen = new RandomIntents(31, DIM);
        try (TalaDB db = TalaDB.open(dir, options(64L * 1024 * 1024).build())) {
            for (int i = 0; i < 3000; i++) {
                Intent x = gen.next();
                db.put(x);
                model.put(x.id(), x);
            }
        }
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(dir.resolveSibling("stash"));
        fault.failForces(p -> p.getFileName().toString().equals("MANIFEST"));
        Options small = options(SMALL_MEMTABLE).maxImmutableMemtables(1).build();
        assertThrows(StorageException.class, () -> TalaDB.open(dir, small.toBuilder().fileLayer(fault).build()),
                "the commit edit's force fails");
        // No power loss: the process simply opens again (the failed edit's bytes are in the file).
        try (TalaDB db = TalaDB.open(dir, small)) {
            for (Map.Entry<IntentId, Intent> e : model.entrySet()) {
                assertEquals(Optional.of(e.getValue()), db.get(e.getKey()));
            }
        }
    }
}
