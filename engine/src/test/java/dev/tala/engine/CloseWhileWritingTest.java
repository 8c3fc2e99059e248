package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A put that close() catches between logging its record and being acknowledged. close forces
 * every record logged before it, so the put is durable and the next open has it: its caller
 * must not be told it failed (DatabaseClosedException, "the write-ahead log was closed before
 * sequence N was made durable"). A service that believes that error reports a failure for a
 * write that took effect, or retries a delete or an outcome as if it had not.
 *
 * <p>The interleaving, made deterministic: a put (L) holds its SYNC force; a second put (B,
 * a virtual thread) logs its record and waits behind L; the virtual threads' carriers are kept
 * busy so that B, once released, cannot run until close has taken its final turn (which is
 * held in its force); then B runs. Seen first in a service-like test where writers raced close:
 * one put in fifteen rounds was refused this way and found after reopen.
 */
class CloseWhileWritingTest {
    static final int DIM = 4;

    @TempDir
    Path dir;

    /** Holds a WAL force made by a thread that has a gate, until the gate opens. */
    static final class GatedForces extends ForwardingFileLayer {
        final Map<Thread, CountDownLatch> gates = new ConcurrentHashMap<>();
        final Map<Thread, CountDownLatch> reached = new ConcurrentHashMap<>();

        GatedForces() {
            super(LocalFileLayer.INSTANCE);
        }

        void gate(Thread t) {
            gates.put(t, new CountDownLatch(1));
            reached.put(t, new CountDownLatch(1));
        }

        void awaitReached(Thread t) throws InterruptedException {
            assertTrue(reached.get(t).await(30, TimeUnit.SECONDS), t.getName() + " reached its WAL force");
        }

        void open(Thread t) {
            gates.get(t).countDown();
        }

        @Override
        protected void beforeForce(Path file) throws IOException {
            CountDownLatch gate = gates.get(Thread.currentThread());
            if (gate != null && file.getFileName().toString().endsWith(".wal")) {
                reached.get(Thread.currentThread()).countDown();
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
        }
    }

    static Intent intent(IntentId id) {
        float[] v = new float[DIM];
        Arrays.fill(v, 1f);
        return Intent.builder().id(id).timestampNs(id.leastSignificantBits()).command("x").embedding(v).build();
    }

    @Test
    void aPutThatCloseMakesDurableIsNotReportedAsFailed() throws Exception {
        GatedForces layer = new GatedForces();
        Options options = Options.builder().dimension(DIM).durability(Durability.sync()).backgroundCompaction(false)
                .fileLayer(layer).build();
        IntentId first = IntentId.of(1, 1);
        IntentId second = IntentId.of(2, 2);
        TalaDB db = TalaDB.open(dir, options);
        db.put(intent(IntentId.of(0, 0)));

        Thread leader = Thread.ofPlatform().name("leader").unstarted(() -> db.put(intent(first)));
        layer.gate(leader);
        leader.start();
        layer.awaitReached(leader);

        AtomicReference<Object> secondResult = new AtomicReference<>();
        Thread waiter = Thread.ofVirtual().name("waiter").start(() -> {
            try {
                secondResult.set(db.put(intent(second)));
            } catch (Throwable e) {
                secondResult.set(e);
            }
        });
        awaitParked(waiter);

        // Every carrier busy: the waiter, once released, waits for one.
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        AtomicBoolean spin = new AtomicBoolean(true);
        AtomicInteger spinning = new AtomicInteger();
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < carriers; i++) {
            spinners.add(Thread.ofVirtual().start(() -> {
                spinning.incrementAndGet();
                while (spin.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        AtomicReference<Throwable> closeError = new AtomicReference<>();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (spinning.get() < carriers && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            Thread closer = Thread.ofPlatform().name("closer").unstarted(() -> {
                try {
                    db.close();
                } catch (Throwable e) {
                    closeError.set(e);
                }
            });
            layer.gate(closer);
            closer.start();
            layer.open(leader); // the leader's turn ends and releases the waiter, which finds no carrier
            leader.join(30_000);
            layer.awaitReached(closer); // close's final turn holds the second put's record
            spin.set(false);
            // The waiter runs now: it is refused at once, or waits for close's turn to end.
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (waiter.isAlive() && !parkedBehindALeader(waiter) && System.nanoTime() < until) {
                Thread.sleep(1);
            }
            layer.open(closer);
            waiter.join(30_000);
            closer.join(30_000);
            assertFalse(closer.isAlive(), "close hangs");
        } finally {
            spin.set(false);
            layer.gates.values().forEach(CountDownLatch::countDown);
        }
        for (Thread s : spinners) {
            s.join();
        }
        assertFalse(waiter.isAlive(), "the second put hangs");
        assertEquals(null, closeError.get(), "close failed");

        Optional<Intent> afterReopen;
        try (TalaDB again = TalaDB.open(dir, Options.builder().dimension(DIM).build())) {
            afterReopen = again.get(second);
            assertTrue(again.get(first).isPresent(), "the first put was acknowledged");
        }
        Object result = secondResult.get();
        assertFalse(result instanceof Throwable && afterReopen.isPresent(),
                "the second put was refused (" + result + ") yet the reopened database has it");
    }

    private static boolean parkedBehindALeader(Thread t) {
        return t.getState() == Thread.State.WAITING
                && Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getMethodName().equals("awaitRelease"));
    }

    private static void awaitParked(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (parkedBehindALeader(t)) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError(t.getName() + " never waited behind the leader's force:\n" + Threads.dumpAll());
    }
}
