package dev.tala.wal;

import static dev.tala.wal.WalTestSupport.replayAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.testing.RandomIntents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteAheadLogTest {
    @TempDir
    Path dir;

    /**
     * Many threads append and wait; every acknowledged record comes back from replay exactly
     * once, in sequence order, with its own ops. The writers are platform or virtual threads:
     * a virtual writer that becomes the leader holds its carrier while it forces, and the others
     * must still be released.
     */
    @Property(tries = 10)
    void concurrentWritersEachAcknowledgedRecordIsReplayedExactlyOnceInOrder(
            @ForAll @IntRange(min = 2, max = 12) int threads,
            @ForAll @IntRange(min = 1, max = 60) int perThread,
            @ForAll boolean sync,
            @ForAll boolean virtual) throws Exception {
        Path root = Files.createTempDirectory("wal-conc");
        try {
            Path walDir = root.resolve("wal");
            FileLayer fs = LocalFileLayer.INSTANCE;
            ConcurrentLinkedQueue<WalRecord> acknowledged = new ConcurrentLinkedQueue<>();
            try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, sync ? Durability.sync() : Durability.none())) {
                runThreads(threads, virtual, t -> {
                    RandomIntents gen = new RandomIntents(t, WalTestSupport.DIM);
                    for (int i = 0; i < perThread; i++) {
                        logAndAcknowledge(wal, gen, acknowledged);
                    }
                });
            }
            assertReplayedOnceInOrder(walDir, acknowledged);
        } finally {
            FileTrees.delete(root);
        }
    }

    /**
     * SYNC writers while one of them rotates the log now and then and another forces it with
     * {@code sync()}, on a disk whose force takes a millisecond, so that leaders gather groups.
     * A gathering leader lets go of the lock while it waits; rotation and sync must wait for
     * its turn to end all the same, or records would go to a file the turn no longer owns.
     * Every acknowledged record is replayed exactly once, in order, across the files.
     */
    @Property(tries = 10)
    void rotationsAndSyncsBesideGatheringLeadersLoseNothing(
            @ForAll @IntRange(min = 4, max = 12) int threads,
            @ForAll @IntRange(min = 5, max = 30) int perThread,
            @ForAll boolean virtual) throws Exception {
        Path root = Files.createTempDirectory("wal-rotating");
        try {
            Path walDir = root.resolve("wal");
            FileLayer slow = new SlowForceFileLayer(LocalFileLayer.INSTANCE, 1);
            ConcurrentLinkedQueue<WalRecord> acknowledged = new ConcurrentLinkedQueue<>();
            AtomicLong nextFile = new AtomicLong(2);
            try (WriteAheadLog wal = WriteAheadLog.create(slow, walDir, 1, 0, Durability.sync())) {
                runThreads(threads, virtual, t -> {
                    RandomIntents gen = new RandomIntents(t, WalTestSupport.DIM);
                    for (int i = 0; i < perThread; i++) {
                        logAndAcknowledge(wal, gen, acknowledged);
                        if (t == 0 && i % 4 == 3) {
                            wal.rotate(nextFile.getAndIncrement());
                        } else if (t == 1 && i % 3 == 2) {
                            wal.sync();
                        }
                    }
                });
                assertTrue(wal.currentFileNumber() > 1, "the log rotated");
            }
            assertReplayedOnceInOrder(walDir, acknowledged);
        } finally {
            FileTrees.delete(root);
        }
    }

    /** Logs a random record, waits until it may be acknowledged, and adds it to {@code acknowledged}. */
    private static void logAndAcknowledge(WriteAheadLog wal, RandomIntents gen, Collection<WalRecord> acknowledged) {
        List<WalOp> ops = WalTestSupport.randomOps(gen);
        long first = wal.append(ops);
        wal.awaitDurable(first + ops.size() - 1);
        acknowledged.add(new WalRecord(first, ops));
    }

    /** Replays {@code walDir}: exactly the acknowledged records, in sequence order, with no gaps. */
    private static void assertReplayedOnceInOrder(Path walDir, Collection<WalRecord> acknowledged) throws IOException {
        List<WalRecord> expected = new ArrayList<>(acknowledged);
        expected.sort((a, b) -> Long.compare(a.firstSequence(), b.firstSequence()));
        List<WalRecord> replayed = replayAll(LocalFileLayer.INSTANCE, walDir, WalRecoveryMode.ABSOLUTE_CONSISTENCY);
        WalTestSupport.assertSameRecords(expected, replayed);
        long next = 1;
        for (WalRecord r : replayed) {
            assertEquals(next, r.firstSequence(), "sequence numbers have no gaps");
            next = r.lastSequence() + 1;
        }
    }

    /**
     * A batch past the record limit is refused before any of it is encoded, and leaves
     * nothing in the log: the records around it replay exactly, with no gap in the sequence.
     */
    @Test
    void aBatchPastTheLimitIsRefusedAndLeavesNoTrace() throws IOException {
        Path walDir = dir.resolve("wal");
        RandomIntents small = new RandomIntents(3, WalTestSupport.DIM);
        RandomIntents wide = new RandomIntents(4, 16_384); // 64 KiB embeddings
        List<WalRecord> kept = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(LocalFileLayer.INSTANCE, walDir, 1, 0, Durability.none())) {
            List<WalOp> before = List.of(new WalOp.Put(small.next()));
            kept.add(new WalRecord(wal.append(before), before));
            List<WalOp> huge = new ArrayList<>();
            for (int i = 0; i < 4_000; i++) { // about 256 MiB if it were encoded whole
                huge.add(new WalOp.Put(wide.next()));
            }
            InvalidIntentException refused = assertThrows(InvalidIntentException.class, () -> wal.append(huge));
            assertTrue(refused.getMessage().contains("the limit for one atomic write"), refused.getMessage());
            List<WalOp> after = List.of(new WalOp.Put(small.next()));
            kept.add(new WalRecord(wal.append(after), after));
            assertEquals(kept.get(0).lastSequence() + 1, kept.get(1).firstSequence());
        }
        WalTestSupport.assertSameRecords(kept, replayAll(LocalFileLayer.INSTANCE, walDir, WalRecoveryMode.ABSOLUTE_CONSISTENCY));
    }

    @Test
    void groupCommitSharesOneForceAmongWaitingWriters() throws Exception {
        SlowForceFileLayer slow = new SlowForceFileLayer(LocalFileLayer.INSTANCE, 5);
        int threads = 16;
        int perThread = 20;
        WriteAheadLog.Stats stats;
        long layerNanos;
        try (WriteAheadLog wal = WriteAheadLog.create(slow, dir.resolve("wal"), 1, 0, Durability.sync())) {
            slow.nanosInForces.set(0); // the new file's header was forced, not counted as a write's
            runThreads(threads, t -> {
                RandomIntents gen = new RandomIntents(t, WalTestSupport.DIM);
                for (int i = 0; i < perThread; i++) {
                    long s = wal.append(List.of(new WalOp.Put(gen.next())));
                    wal.awaitDurable(s);
                }
            });
            stats = wal.stats();
            layerNanos = slow.nanosInForces.get();
        }
        assertEquals(threads * perThread, stats.records());
        // With a 5 ms force and 16 writers, most forces must cover several records.
        assertTrue(stats.forces() * 3 < stats.records(), "forces " + stats.forces() + " for " + stats.records() + " records");
        // Every force sleeps 5 ms in the file layer: its time is counted, and counted once. The
        // bound is what the layer itself saw (the sleep and the real force, however long a busy
        // machine makes them) plus a little per force for the log's own steps around the call;
        // counting each force twice would add at least 5 ms per force.
        long forceMillis = stats.forceNanos() / 1_000_000;
        long layerMillis = layerNanos / 1_000_000;
        assertTrue(forceMillis >= 5 * stats.forces() && forceMillis >= layerMillis
                        && forceMillis < layerMillis + stats.forces() + 50,
                forceMillis + " ms in " + stats.forces() + " forces, " + layerMillis + " ms of them in the file layer");
    }

    /**
     * A writer interrupted while it waits behind another's force is still acknowledged only
     * once its record is forced, and keeps its interrupt flag for its caller.
     */
    @Test
    void anInterruptedWaiterIsAcknowledgedAfterTheForceAndKeepsItsInterrupt() throws Exception {
        FileLayer slow = new SlowForceFileLayer(LocalFileLayer.INSTANCE, 5);
        Path walDir = dir.resolve("wal");
        ConcurrentLinkedQueue<Long> acknowledged = new ConcurrentLinkedQueue<>();
        try (WriteAheadLog wal = WriteAheadLog.create(slow, walDir, 1, 0, Durability.sync())) {
            runThreads(8, t -> {
                RandomIntents gen = new RandomIntents(t, WalTestSupport.DIM);
                for (int i = 0; i < 10; i++) {
                    long s = wal.append(List.of(new WalOp.Put(gen.next())));
                    Thread.currentThread().interrupt();
                    wal.awaitDurable(s);
                    assertTrue(Thread.interrupted(), "the interrupt flag survives the wait");
                    acknowledged.add(s);
                }
            });
        }
        assertEquals(80, acknowledged.size());
        assertEquals(80, replayAll(LocalFileLayer.INSTANCE, walDir, WalRecoveryMode.ABSOLUTE_CONSISTENCY).size());
    }

    /**
     * SYNC writers under a crash at a random operation followed by power loss: every record
     * that was acknowledged is replayed.
     */
    @Property(tries = 30)
    void inSyncModePowerLossLosesNothingAcknowledged(@ForAll @IntRange(min = 0, max = 120) int crashAfter,
                                                     @ForAll FaultInjectingFileLayer.PowerLossMode mode,
                                                     @ForAll long seed) throws Exception {
        Path root = Files.createTempDirectory("wal-power");
        try {
            WalTestSupport.FaultyWalDir faulty = WalTestSupport.FaultyWalDir.create(root);
            Path walDir = faulty.walDir();
            FaultInjectingFileLayer fs = faulty.fs();
            Set<Long> acknowledged = Collections.synchronizedSet(new HashSet<>());
            fs.crashAfter(crashAfter);
            try {
                WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync());
                AtomicBoolean crashed = new AtomicBoolean();
                runThreads(4, t -> {
                    RandomIntents gen = new RandomIntents(seed + t, WalTestSupport.DIM);
                    for (int i = 0; i < 25 && !crashed.get(); i++) {
                        try {
                            long s = wal.append(List.of(WalTestSupport.randomOp(gen)));
                            wal.awaitDurable(s);
                            acknowledged.add(s);
                            if (i % 9 == 8 && t == 0) {
                                wal.rotate(2 + i);
                            }
                        } catch (DatabaseFailedException e) {
                            crashed.set(true);
                        }
                    }
                });
                try {
                    wal.close();
                } catch (IOException expectedAfterCrash) {
                    // the machine is down
                }
            } catch (IOException crashDuringCreate) {
                // nothing was acknowledged
            }
            fs.powerLoss(mode, seed);
            Set<Long> replayed = new HashSet<>();
            for (WalRecord r : replayAll(LocalFileLayer.INSTANCE, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL)) {
                replayed.add(r.firstSequence());
            }
            for (long s : acknowledged) {
                assertTrue(replayed.contains(s), "acknowledged sequence " + s + " lost; crash at op " + crashAfter
                        + ", recent: " + fs.recentOperations());
            }
        } finally {
            FileTrees.delete(root);
        }
    }

    @Test
    void aFullDiskFailsTheLogClearlyAndLeavesNoHalfRecordBehind() throws Exception {
        FaultInjectingFileLayer fs = new FaultInjectingFileLayer(dir.resolve("stash"));
        Path walDir = dir.resolve("wal");
        RandomIntents gen = new RandomIntents(1, WalTestSupport.DIM);
        List<Long> acknowledged = new ArrayList<>();
        WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync());
        for (int i = 0; i < 3; i++) {
            long s = wal.append(List.of(new WalOp.Put(gen.next())));
            wal.awaitDurable(s);
            acknowledged.add(s);
        }
        fs.diskFullAfter(50);
        long doomed = wal.append(List.of(new WalOp.Put(gen.next())));
        DatabaseFailedException e = assertThrows(DatabaseFailedException.class, () -> wal.awaitDurable(doomed));
        assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        assertTrue(wal.hasFailed());
        assertThrows(DatabaseFailedException.class, () -> wal.append(List.of(new WalOp.Put(gen.next()))));
        fs.clearDiskFull();
        assertThrows(DatabaseFailedException.class, () -> wal.awaitDurable(doomed), "no retry after the failure");
        wal.close();
        List<WalRecord> replayed = replayAll(fs, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL);
        assertEquals(acknowledged, replayed.stream().map(WalRecord::firstSequence).toList(),
                "the partly written record is a torn tail, not a replayed write");
    }

    @Test
    void aFailedForceIsFinalAndTheUnforcedRecordsAreNotAcknowledged() throws Exception {
        FaultInjectingFileLayer fs = new FaultInjectingFileLayer(dir.resolve("stash"));
        Path walDir = dir.resolve("wal");
        fs.createDirectories(walDir);
        fs.syncDirectory(dir);
        RandomIntents gen = new RandomIntents(2, WalTestSupport.DIM);
        WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync());
        long ok = wal.append(List.of(new WalOp.Put(gen.next())));
        wal.awaitDurable(ok);
        // Only the first force fails: a leader that retried it would see the retry "succeed" and
        // acknowledge a record whose pages the kernel may have dropped (from a mutation audit).
        java.util.concurrent.atomic.AtomicBoolean failedOnce = new java.util.concurrent.atomic.AtomicBoolean();
        fs.failForces(p -> p.toString().endsWith(".wal") && failedOnce.compareAndSet(false, true));
        long bad = wal.append(List.of(new WalOp.Put(gen.next())));
        DatabaseFailedException e = assertThrows(DatabaseFailedException.class, () -> wal.awaitDurable(bad),
                "a write whose force failed is not acknowledged, even if a second force would succeed");
        assertTrue(e.getMessage().contains("simulated failed fsync"), e.getMessage());
        fs.clearForceFailures();
        assertThrows(DatabaseFailedException.class, () -> wal.awaitDurable(bad));
        assertThrows(DatabaseFailedException.class, wal::sync);
        wal.close();
        fs.powerLoss();
        List<WalRecord> replayed = replayAll(LocalFileLayer.INSTANCE, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL);
        assertEquals(List.of(ok), replayed.stream().map(WalRecord::firstSequence).toList());
    }

    @Test
    void batchModeForcesInTheBackground() throws Exception {
        CountingForceFileLayer counting = new CountingForceFileLayer(LocalFileLayer.INSTANCE);
        RandomIntents gen = new RandomIntents(3, WalTestSupport.DIM);
        try (WriteAheadLog wal = WriteAheadLog.create(counting, dir.resolve("wal"), 1, 0, Durability.batch(Duration.ofMillis(5)))) {
            long baseline = counting.forces;
            long s = wal.append(List.of(new WalOp.Put(gen.next())));
            wal.awaitDurable(s);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (counting.forces == baseline && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            assertTrue(counting.forces > baseline, "the batch thread forced the log");
        }
    }

    @Test
    void aWriteTooLargeForOneRecordIsRefusedAndNothingIsLogged() throws Exception {
        Path walDir = dir.resolve("wal");
        float[] huge = new float[60_000];
        List<WalOp> ops = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ops.add(new WalOp.Put(Intent.builder().id(IntentId.of(0, i)).embedding(huge).build()));
        }
        try (WriteAheadLog wal = WriteAheadLog.create(LocalFileLayer.INSTANCE, walDir, 1, 0, Durability.sync())) {
            InvalidIntentException e = assertThrows(InvalidIntentException.class, () -> wal.append(ops));
            assertEquals("batch", e.field());
            assertEquals(0, wal.lastSequence());
            long s = wal.append(ops.subList(0, 1));
            assertEquals(1, s);
        }
        assertEquals(1, replayAll(LocalFileLayer.INSTANCE, walDir, WalRecoveryMode.ABSOLUTE_CONSISTENCY).size());
    }

    @Test
    void durabilityParsesItsTextForm() {
        assertEquals(Durability.sync(), Durability.parse("sync"));
        assertEquals(Durability.none(), Durability.parse("NONE"));
        assertEquals(Durability.batch(Duration.ofMillis(20)), Durability.parse("batch:20"));
        assertEquals("batch:20", Durability.batch(Duration.ofMillis(20)).toString());
        assertThrows(IllegalArgumentException.class, () -> Durability.parse("batch:"));
        assertThrows(IllegalArgumentException.class, () -> Durability.parse("often"));
        // Long.parseLong takes these; an OPTIONS file or --durability should not.
        assertThrows(IllegalArgumentException.class, () -> Durability.parse("batch:\u0665"));
        assertThrows(IllegalArgumentException.class, () -> Durability.parse("batch:+5"));
    }

    /** A durability without a mode is refused when built (a log given one forced nothing, from an audit). */
    @Test
    void aDurabilityWithoutAModeIsRefused() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new Durability(null, null));
        assertEquals("durability mode (SYNC, BATCH or NONE)", e.getMessage());
    }

    // ---- helpers --------------------------------------------------------------------------

    interface ThreadBody {
        void run(int thread) throws Exception;
    }

    static void runThreads(int n, ThreadBody body) throws Exception {
        runThreads(n, false, body);
    }

    static void runThreads(int n, boolean virtual, ThreadBody body) throws Exception {
        Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        for (int t = 0; t < n; t++) {
            final int id = t;
            Thread th = builder.unstarted(() -> {
                try {
                    start.await();
                    body.run(id);
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            th.start();
            threads.add(th);
        }
        start.countDown();
        for (Thread th : threads) {
            th.join();
        }
        if (!errors.isEmpty()) {
            AssertionError failure = new AssertionError("a writer thread failed");
            errors.forEach(failure::addSuppressed);
            throw failure;
        }
    }

    /** A disk whose force takes a few milliseconds, like a real one. */
    static final class SlowForceFileLayer extends ForwardingFileLayer {
        private final long millis;
        private final ThreadLocal<Long> started = new ThreadLocal<>();
        /** The time forces took, as seen from inside the file layer: the sleep and the force. */
        final AtomicLong nanosInForces = new AtomicLong();

        SlowForceFileLayer(FileLayer inner, long millis) {
            super(inner);
            this.millis = millis;
        }

        @Override
        protected void beforeForce(Path file) {
            started.set(System.nanoTime());
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        protected void afterForce(Path file, long nanos) {
            nanosInForces.addAndGet(System.nanoTime() - started.get());
        }
    }

    static final class CountingForceFileLayer extends ForwardingFileLayer {
        volatile long forces;

        CountingForceFileLayer(FileLayer inner) {
            super(inner);
        }

        @Override
        protected synchronized void beforeForce(Path file) {
            forces++;
        }
    }
}
