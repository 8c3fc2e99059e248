package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.DbStats;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WAL can hold more than one memtable's worth of records: a crash while frozen memtables wait
 * for their flushes, or an open with a smaller memtable size than the writes had. Replay fills
 * memtables of the configured size, as the writes would have, so that each can be flushed; one
 * memtable holding the whole WAL could outgrow what a flush can write and fail every open.
 */
class LongReplayTest {
    private static final int DIM = 8;
    private static final long SMALL_MEMTABLE = 16 * 1024;

    @TempDir
    Path dir;

    private static Options.Builder options(long memtableBytes) {
        return Options.builder().dimension(DIM).memtableBytes(memtableBytes).durability(Durability.none())
                .backgroundCompaction(false);
    }

    @Test
    void aWalHoldingManyMemtablesIsReplayedIntoMemtablesOfTheConfiguredSize() throws Exception {
        RandomIntents gen = new RandomIntents(21, DIM);
        Map<IntentId, Intent> model = new LinkedHashMap<>();
        List<IntentId> ids = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options(64L * 1024 * 1024).build())) {
            for (int i = 0; i < 3000; i++) {
                Intent x = gen.next();
                db.put(x);
                model.put(x.id(), x);
                ids.add(x.id());
                // Outcomes and deletes reach back across what replay will make memtable boundaries.
                if (i % 5 == 4) {
                    IntentId old = ids.get(gen.random().nextInt(ids.size()));
                    if (model.containsKey(old)) {
                        Outcome outcome = new Outcome(i, 1);
                        db.attachOutcome(old, Status.SUCCESS, outcome);
                        model.put(old, model.get(old).withOutcome(Status.SUCCESS, outcome));
                    }
                }
                if (i % 11 == 10) {
                    IntentId victim = ids.get(gen.random().nextInt(ids.size()));
                    db.delete(victim);
                    model.remove(victim);
                }
            }
            assertEquals(0, db.stats().segments(), "everything is still in the WAL");
        }

        long walBytes;
        try (TalaDB db = TalaDB.open(dir, options(SMALL_MEMTABLE).build())) {
            assertModel(model, ids, db, "right after replay");
            db.flush();
            DbStats stats = db.stats();
            walBytes = stats.walBytesLogged();
            assertTrue(stats.flushes() >= 10, "the replayed WAL was flushed in memtables of about "
                    + SMALL_MEMTABLE + " bytes: " + stats);
            assertTrue(stats.walFiles() <= 2, "flushes retired the replayed WAL files: " + stats);
        }
        try (TalaDB db = TalaDB.open(dir, options(SMALL_MEMTABLE).build())) {
            assertModel(model, ids, db, "after the flushes and a reopen");
        }
        assertEquals(0, walBytes, "the replay logged nothing new");
    }

    private static void assertModel(Map<IntentId, Intent> model, List<IntentId> ids, TalaDB db, String when) {
        for (IntentId id : ids) {
            assertEquals(Optional.ofNullable(model.get(id)), db.get(id), when + ": " + id);
        }
    }
}
