package dev.tala.core.concurrent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

class UninterruptibleWaitsTest {
    @Test
    void anInterruptedCallerStillWaitsForTheWorkAndKeepsItsInterrupt() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        CountDownLatch started = new CountDownLatch(1);
        executor.execute(() -> {
            started.countDown();
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                throw new AssertionError("the work was interrupted", e);
            }
        });
        started.await();
        executor.shutdown();
        Thread.currentThread().interrupt();
        try {
            assertTrue(UninterruptibleWaits.awaitTermination(executor, Duration.ofSeconds(10)),
                    "returned before the work ended");
            assertTrue(executor.isTerminated());
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aLockHeldElsewhereIsWaitedForDespiteInterrupts() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        CountDownLatch held = new CountDownLatch(1);
        // The holder lets go only once every interrupt was sent, and the interrupter starts only
        // once this thread waits for the lock: with fixed sleeps (200 ms held, 5 x 20 ms of
        // interrupts) a loaded machine let the interrupter run on past the wait, so the join
        // below threw InterruptedException (6 in 60 runs beside two busy cores).
        CountDownLatch interruptsSent = new CountDownLatch(1);
        Thread me = Thread.currentThread();
        Thread holder = Thread.ofPlatform().start(() -> {
            lock.lock();
            held.countDown();
            try {
                interruptsSent.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // released below either way
            } finally {
                lock.unlock();
            }
        });
        held.await();
        Thread interrupter = Thread.ofPlatform().start(() -> {
            try {
                for (long deadline = System.nanoTime() + 30_000_000_000L;
                        !lock.hasQueuedThread(me) && System.nanoTime() < deadline; ) {
                    Thread.sleep(1);
                }
                for (int i = 0; i < 5; i++) {
                    me.interrupt();
                    Thread.sleep(20);
                }
            } catch (InterruptedException e) {
                // nothing more to send
            } finally {
                interruptsSent.countDown();
            }
        });
        try {
            assertTrue(UninterruptibleWaits.tryLock(lock, Duration.ofSeconds(10)));
            lock.unlock();
            // Read (and clear) the flag before joining: a join with it set would throw.
            assertTrue(Thread.interrupted(), "the interrupt is kept");
            interrupter.join();
        } finally {
            Thread.interrupted();
        }
        holder.join();
        assertFalse(UninterruptibleWaits.tryLock(new ReentrantLock() {
            @Override
            public boolean tryLock(long time, java.util.concurrent.TimeUnit unit) {
                return false;
            }
        }, Duration.ofMillis(1)), "a wait that runs out says so");
    }
}
