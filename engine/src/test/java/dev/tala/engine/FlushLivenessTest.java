package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** maintenance calls made while writers keep the memtables busy must return. */
class FlushLivenessTest {
    static final int DIM = 8;

    @TempDir
    Path dir;

    @Test
    void flushReturnsWhileOtherThreadsKeepWriting() throws Exception {
        flushWhileWriting(Options.builder().dimension(DIM).memtableBytes(4096).durability(Durability.none())
                .backgroundCompaction(false).build(), 2);
    }

    /** Writers faster than the flusher keep several frozen memtables queued at every instant. */
    @Test
    void flushReturnsWhileFrozenMemtablesNeverRunOut() throws Exception {
        flushWhileWriting(Options.builder().dimension(DIM).memtableBytes(4096).durability(Durability.none())
                .maxImmutableMemtables(6).backgroundCompaction(false).build(), 4);
    }

    private void flushWhileWriting(Options options, int writerCount) throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        try (TalaDB db = TalaDB.open(dir, options)) {
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < writerCount; w++) {
                final int seed = w;
                writers.add(Thread.ofPlatform().start(() -> {
                    RandomIntents gen = new RandomIntents(seed, DIM);
                    try {
                        while (running.get()) {
                            Intent x = gen.next();
                            db.put(Intent.builder().id(x.id()).timestampNs(x.timestampNs()).command("c")
                                    .embedding(x.embedding()).build());
                        }
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }));
            }
            Thread.sleep(200);
            long worstMs = 0;
            long totalStart = System.nanoTime();
            int calls = 0;
            // A flush waits for what was in memory when it was called; with writers running, new
            // frozen memtables keep appearing, and flush() must not wait for them too.
            while (calls < 20 && System.nanoTime() - totalStart < 12_000_000_000L) {
                long start = System.nanoTime();
                Thread flusher = Thread.ofPlatform().start(db::flush);
                flusher.join(15_000);
                long ms = (System.nanoTime() - start) / 1_000_000;
                worstMs = Math.max(worstMs, ms);
                if (flusher.isAlive()) {
                    running.set(false);
                    flusher.join(10_000);
                    throw new AssertionError("flush() had not returned after 15 s of concurrent writes (call "
                            + calls + "); after the writers stopped it took " + ((System.nanoTime() - start) / 1_000_000)
                            + " ms in all; stats " + db.stats());
                }
                calls++;
            }
            running.set(false);
            for (Thread t : writers) {
                t.join();
            }
            assertTrue(errors.isEmpty(), errors.toString());
            System.out.println("flush liveness: " + calls + " flushes, worst " + worstMs + " ms");
        }
    }
}
