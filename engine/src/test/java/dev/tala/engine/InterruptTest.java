package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionProgress;
import dev.tala.compaction.TieredPolicy;
import dev.tala.compaction.TieredSettings;
import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.error.OperationInterruptedException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.SegmentMeta;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service cancels requests by interrupting their threads ({@code Future.cancel(true)},
 * {@code shutdownNow}). An interrupt may end the interrupted call, never the database.
 */
class InterruptTest {
    static final int DIM = 8;
    @TempDir
    Path dir;

    @Test
    void writersInterruptedAtRandomNeitherFailTheDatabaseNorLoseAcknowledgedWrites() throws Exception {
        Options options = Options.builder().dimension(DIM).memtableBytes(256 * 1024)
                .durability(Durability.sync()).build();
        ConcurrentLinkedQueue<Intent> acknowledged = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        int interrupts = 0;
        try (TalaDB db = TalaDB.open(dir, options)) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int seed = w;
                writers.add(Thread.ofPlatform().start(() -> {
                    RandomIntents gen = new RandomIntents(100 + seed, DIM);
                    while (!stop.get()) {
                        Intent intent = gen.next();
                        try {
                            db.put(intent);
                            acknowledged.add(intent);
                        } catch (OperationInterruptedException e) {
                            // allowed: interrupted while waiting for room, nothing written
                        } catch (Throwable t) {
                            unexpected.compareAndSet(null, t);
                            return;
                        }
                        Thread.interrupted(); // the next request starts afresh, as in a pool
                    }
                }));
            }
            // 1.5 s, and on (up to 30 s) until enough writes got through to be worth checking:
            // a slow disk makes SYNC writes slow, not wrong.
            long start = System.nanoTime();
            long end = start + 1_500_000_000L;
            long cap = start + 30_000_000_000L;
            while ((System.nanoTime() < end || acknowledged.size() <= 100) && System.nanoTime() < cap
                    && unexpected.get() == null) {
                writers.get(ThreadLocalRandom.current().nextInt(writers.size())).interrupt();
                interrupts++;
                Thread.sleep(0, 200_000);
            }
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
            if (unexpected.get() != null) {
                throw new AssertionError("a writer failed after " + interrupts + " interrupts", unexpected.get());
            }
            assertFalse(db.stats().failed(), "the database failed");
            assertTrue(acknowledged.size() > 100, "only " + acknowledged.size() + " writes acknowledged");
            db.put(new RandomIntents(7, DIM).next());
            for (Intent i : acknowledged) {
                assertEquals(i, db.get(i.id()).orElseThrow(), "acknowledged, then lost");
            }
        }
        try (TalaDB db = TalaDB.open(dir, options)) {
            for (Intent i : acknowledged) {
                assertEquals(i, db.get(i.id()).orElseThrow(), "lost across the reopen");
            }
        }
    }

    @Test
    void anInterruptedCompactionStopsAndLeavesTheDatabaseWritable() {
        Options options = Options.builder().dimension(DIM).memtableBytes(64L << 20)
                .durability(Durability.none()).backgroundCompaction(false).build();
        try (TalaDB db = TalaDB.open(dir, options)) {
            List<Intent> intents = fill(db, 10_000);
            List<SegmentMeta> before = db.liveSegments();
            Thread.currentThread().interrupt();
            try {
                assertThrows(OperationInterruptedException.class, () -> db.compact(CompactionProgress.Listener.NONE));
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller");
            } finally {
                Thread.interrupted();
            }
            assertFalse(db.stats().failed());
            assertEquals(before, db.liveSegments(), "the segments are as they were");
            assertTrue(db.compact(CompactionProgress.Listener.NONE).isPresent());
            for (Intent i : intents) {
                assertEquals(Status.SUCCESS, db.get(i.id()).orElseThrow().status());
            }
        }
    }

    /**
     * Close during a compaction on another thread waits for it (it is cancelled at its next
     * row) instead of unmapping the segments it reads; also when the closing thread is itself
     * interrupted, as a close in a cancelled task is.
     */
    @Test
    void closingDuringACallersCompactionWaitsForItAndLosesNothing() throws Exception {
        for (boolean closerInterrupted : new boolean[] {false, true}) {
            Path db = dir.resolve("closer-interrupted-" + closerInterrupted);
            Options options = Options.builder().dimension(DIM).memtableBytes(64L << 20)
                    .durability(Durability.none()).backgroundCompaction(false).build();
            List<Intent> intents;
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            CountDownLatch compacting = new CountDownLatch(1);
            try (TalaDB open = TalaDB.open(db, options)) {
                intents = fill(open, 20_000);
                Thread compactor = Thread.ofPlatform().start(() -> {
                    try {
                        open.compact(progress -> {
                            compacting.countDown();
                            sleepQuietly(100); // the merge is mid-way while close runs
                        });
                    } catch (Throwable t) {
                        thrown.set(t);
                    }
                });
                assertTrue(compacting.await(30, TimeUnit.SECONDS), "the compaction never reported progress");
                if (closerInterrupted) {
                    Thread.currentThread().interrupt();
                }
                try {
                    open.close();
                    assertEquals(closerInterrupted, Thread.currentThread().isInterrupted(), "the closer's interrupt is kept");
                } finally {
                    Thread.interrupted();
                }
                compactor.join();
            }
            assertTrue(thrown.get() instanceof DatabaseClosedException, "the compaction threw " + thrown.get());
            try (TalaDB reopened = TalaDB.open(db, options)) {
                assertFalse(reopened.stats().failed());
                for (Intent i : intents) {
                    assertEquals(Status.SUCCESS, reopened.get(i.id()).orElseThrow().status());
                }
            }
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A writer stalled because level 0 is over {@code level0StallSegments} waits for a
     * compaction, and an interrupt says so: it said "waiting for a flush to make room", sending
     * the operator after flushes when a compaction (here throttled to 1 byte/s) was behind.
     */
    @Test
    void aWriterStalledForLevelZeroIsToldItWaitedForACompaction() throws Exception {
        Options options = Options.builder().dimension(DIM).durability(Durability.none()).level0StallSegments(1)
                .compactionPolicy(new TieredPolicy(new TieredSettings(2, 8, 4.0, 6, 0.25)))
                .compactionBytesPerSecond(1).build();
        RandomIntents gen = new RandomIntents(4, DIM);
        try (TalaDB db = TalaDB.open(dir, options)) {
            db.put(gen.next());
            db.flush();
            db.put(gen.next());
            db.flush(); // two level-0 segments; their compaction takes hours at 1 byte/s
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    // A put can pass before the compaction is asked for; a later one stalls.
                    while (true) {
                        db.put(gen.next());
                    }
                } catch (Throwable e) {
                    thrown.set(e);
                }
            });
            writer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (db.stats().writeStalls() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            writer.interrupt();
            writer.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(thrown.get() instanceof OperationInterruptedException, String.valueOf(thrown.get()));
            assertEquals("interrupted while waiting for a compaction to reduce the level-0 segments (more than 1,"
                    + " level0StallSegments); nothing was written", thrown.get().getMessage());
            assertFalse(db.stats().failed());
        }
    }

    /** Puts {@code count} intents, flushes, gives each an outcome, flushes again. */
    private static List<Intent> fill(TalaDB db, int count) {
        RandomIntents gen = new RandomIntents(3, DIM);
        List<Intent> intents = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Intent intent = gen.next();
            db.put(intent);
            intents.add(intent);
        }
        db.flush();
        for (Intent i : intents) {
            db.attachOutcome(i.id(), Status.SUCCESS, new Outcome(1, 0));
        }
        db.flush();
        return intents;
    }
}
