package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.LeveledPolicy;
import dev.tala.compaction.LeveledSettings;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction's progress listener runs on the compaction's thread, which holds the compaction
 * lock. It may read; what could wait for that compaction is refused with a clear error (found by
 * the API audit): a compaction started from it ran over the first one's inputs, and the first
 * then listed its outputs in the MANIFEST anyway, so deleted intents came back after a reopen;
 * a put from it could stall for a background compaction that waited for the lock, for good.
 */
class CompactionListenerTest {
    static final int DIM = 8;

    @TempDir
    Path dir;

    private List<Intent> writeSegments(TalaDB db, RandomIntents gen, int segments) {
        List<Intent> written = new ArrayList<>();
        for (int s = 0; s < segments; s++) {
            for (int i = 0; i < 200; i++) {
                Intent x = gen.next();
                db.put(x);
                written.add(x);
            }
            db.flush();
        }
        return written;
    }

    @Test
    void aCompactionFromTheListenerIsRefusedAndNothingComesBack() {
        Options options = Options.builder().dimension(DIM).memtableBytes(64 * 1024).durability(Durability.none())
                .backgroundCompaction(false).build();
        List<Intent> written;
        try (TalaDB db = TalaDB.open(dir, options)) {
            written = writeSegments(db, new RandomIntents(12, DIM), 3);
            AtomicReference<Optional<Intent>> readInListener = new AtomicReference<>();
            RuntimeException refused = assertThrows(RuntimeException.class, () -> db.compact(p -> {
                readInListener.compareAndSet(null, db.get(written.getFirst().id()));
                db.compact();
            }));
            Throwable cause = refused instanceof IllegalStateException ? refused : refused.getCause();
            assertInstanceOf(IllegalStateException.class, cause, refused.toString());
            assertTrue(cause.getMessage().contains("from a compaction's progress listener"), cause.getMessage());
            assertEquals(Optional.of(written.getFirst()), readInListener.get(), "a read from the listener works");
            for (Intent x : written) {
                assertEquals(Optional.of(x), db.get(x.id()));
                db.delete(x.id());
            }
            db.compact();
            assertEquals(0, db.stats().intents());
        }
        try (TalaDB db = TalaDB.open(dir, options)) {
            assertEquals(0, db.stats().intents(), "deleted intents came back after a reopen");
        }
    }

    @Test
    void aPutFromTheListenerIsRefusedInsteadOfStallingForever() throws Exception {
        RandomIntents gen = new RandomIntents(13, DIM);
        // Writers stall behind one level-0 segment; the policy never compacts on its own.
        Options options = Options.builder().dimension(DIM).memtableBytes(64 * 1024).durability(Durability.none())
                .backgroundCompaction(true).level0StallSegments(1)
                .compactionPolicy(new LeveledPolicy(new LeveledSettings(100, 1L << 40, 10, 6))).build();
        try (TalaDB db = TalaDB.open(dir, options)) {
            writeSegments(db, gen, 2);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread compacting = Thread.ofPlatform().start(() -> {
                try {
                    db.compact(p -> {
                        for (int i = 0; i < 1000; i++) {
                            db.put(gen.next());
                        }
                    });
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            compacting.join(60_000);
            assertFalse(compacting.isAlive(), "compact() with puts in its listener hangs");
            Throwable t = thrown.get();
            Throwable cause = t instanceof IllegalStateException || t == null ? t : t.getCause();
            assertInstanceOf(IllegalStateException.class, cause, String.valueOf(t));
            assertTrue(cause.getMessage().startsWith("a write was made from a compaction's progress listener"),
                    cause.getMessage());
        }
    }
}
