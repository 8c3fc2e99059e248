package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight writers and eight readers at once, with a memtable small enough that flushes run all
 * the time. Every acknowledged write is readable afterwards (and after a reopen); readers only
 * ever see versions some writer wrote; nothing throws.
 */
class CrowdTest {
    static final int DIM = 16;
    @TempDir
    Path dir;

    @Test
    void eightWritersAndEightReadersWithBackgroundFlushes() throws Exception {
        Options options = Options.builder().dimension(DIM).memtableBytes(256 * 1024).durability(Durability.sync()).build();
        // The last acknowledged version of every id, and every version ever written.
        Map<IntentId, Intent> acknowledged = new ConcurrentHashMap<>();
        Map<IntentId, List<Intent>> written = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<IntentId> published = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong reads = new AtomicLong();
        int writers = 8;
        int perWriter = 400;
        try (TalaDB db = TalaDB.open(dir, options)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                final int seed = w;
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        RandomIntents gen = new RandomIntents(seed, DIM);
                        List<Intent> mine = new ArrayList<>();
                        for (int i = 0; i < perWriter; i++) {
                            Intent x;
                            if (!mine.isEmpty() && i % 5 == 0) {
                                // Each writer only updates its own ids, so "last acknowledged" is well defined.
                                Intent base = mine.get(gen.random().nextInt(mine.size()));
                                x = acknowledged.get(base.id()).withOutcome(Status.SUCCESS, new Outcome(i, 0));
                                written.get(x.id()).add(x);
                                db.attachOutcome(x.id(), Status.SUCCESS, new Outcome(i, 0));
                            } else {
                                x = gen.next();
                                written.put(x.id(), new java.util.concurrent.CopyOnWriteArrayList<>(List.of(x)));
                                db.put(x);
                                mine.add(x);
                                published.add(x.id());
                            }
                            acknowledged.put(x.id(), x);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "writer-" + w));
            }
            for (int r = 0; r < 8; r++) {
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        while (writing.get()) {
                            for (IntentId id : published) {
                                Optional<Intent> seen = db.get(id);
                                reads.incrementAndGet();
                                if (seen.isPresent() && !written.get(id).contains(seen.get())) {
                                    throw new AssertionError("read a version nobody wrote: " + seen.get());
                                }
                                if (!writing.get()) {
                                    break;
                                }
                            }
                            try (Snapshot s = db.snapshot()) {
                                s.countIntents();
                            }
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "reader-" + r));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (int w = 0; w < writers; w++) {
                threads.get(w).join();
            }
            writing.set(false);
            for (Thread t : threads) {
                t.join();
            }
            if (!errors.isEmpty()) {
                AssertionError failure = new AssertionError("a thread failed");
                errors.forEach(failure::addSuppressed);
                throw failure;
            }
            // Memtables frozen near the end may still be flushing in the background; a slow
            // machine gets up to 30 s to finish them before the flushes are counted.
            DbStats stats = db.stats();
            for (long deadline = System.nanoTime() + 30_000_000_000L;
                    stats.frozenMemtables() > 0 && System.nanoTime() < deadline; stats = db.stats()) {
                Thread.sleep(10);
            }
            assertTrue(stats.flushes() > 2, "flushes ran during the test: " + stats);
            assertTrue(reads.get() > 0);
            assertTrue(stats.walGroupWrites() < stats.walRecords(), "group commit shared forces: " + stats);
            assertTrue(stats.walForces() > 0 && stats.walForceMicros() > 0, "time in WAL forces is counted: " + stats);
            for (Intent x : acknowledged.values()) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
            assertEquals(acknowledged.size(), stats.intents());
        }
        try (TalaDB db = TalaDB.open(dir, options)) {
            for (Intent x : acknowledged.values()) {
                assertEquals(Optional.of(x), db.get(x.id()), "after reopen");
            }
        }
    }
}
