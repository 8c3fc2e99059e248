package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.testing.RandomIntents;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * stats() used to check that the database is open once, at the top, then read the live state in
 * several steps. A close() that landed between those steps made stats() return a mix: the
 * segment count of the view it pinned before the close, and the level-0 count (and pending
 * compaction bytes) of the closed, emptied LiveState. Reads racing close() must either answer
 * correctly or throw DatabaseClosedException; it reported "3 segments, 0 of them level 0"
 * for a database whose 3 segments are all level 0.
 *
 * The race is made deterministic by holding the stats() thread in its WAL directory listing.
 */
class StatsRacingCloseTest {
    static final int DIM = 8;

    @TempDir
    Path root;

    @Test
    void statsRacingCloseIsEitherRefusedOrConsistent() throws Exception {
        CountDownLatch inList = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Thread[] statsThread = new Thread[1];
        ForwardingFileLayer layer = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public List<Path> list(Path dir) throws IOException {
                if (Thread.currentThread() == statsThread[0] && dir.getFileName().toString().equals("wal")) {
                    inList.countDown();
                    try {
                        closed.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.list(dir);
            }
        };
        Options options = Options.builder().dimension(DIM).durability(Durability.none()).backgroundCompaction(false)
                .fileLayer(layer).build();
        TalaDB db = TalaDB.open(root.resolve("db"), options);
        RandomIntents gen = new RandomIntents(11, DIM);
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < 20; i++) {
                db.put(gen.next());
            }
            db.flush();
        }
        DbStats quiet = db.stats();
        assertEquals(3, quiet.segments());
        assertEquals(3, quiet.level0Segments());

        CompletableFuture<Object> racing = new CompletableFuture<>();
        statsThread[0] = Thread.ofPlatform().unstarted(() -> {
            try {
                racing.complete(db.stats());
            } catch (Throwable t) {
                racing.complete(t);
            }
        });
        statsThread[0].start();
        assertTrue(inList.await(10, TimeUnit.SECONDS), "stats() never listed the WAL directory");
        db.close();
        closed.countDown();
        Object result = racing.get(10, TimeUnit.SECONDS);
        if (result instanceof DatabaseClosedException) {
            return; // refused: fine
        }
        if (result instanceof Throwable t) {
            throw new AssertionError("stats() racing close threw something other than DatabaseClosedException", t);
        }
        DbStats raced = (DbStats) result;
        assertEquals(quiet.segments(), raced.segments(), "segments: " + raced);
        assertEquals(quiet.level0Segments(), raced.level0Segments(),
                "stats() racing close() mixes the pinned view (" + raced.segments()
                        + " segments) with the closed live state: " + raced);
    }
}
