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
        Thread holder = Thread.ofPlatform().start(() -> {
            lock.lock();
            held.countDown();
            try {
                Thread.sleep(200);
            } catch (InterruptedException ignored) {
                // released below either way
            } finally {
                lock.unlock();
            }
        });
        held.await();
        Thread me = Thread.currentThread();
        Thread interrupter = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 5; i++) {
                me.interrupt();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            assertTrue(UninterruptibleWaits.tryLock(lock, Duration.ofSeconds(10)));
            lock.unlock();
            interrupter.join();
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
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
