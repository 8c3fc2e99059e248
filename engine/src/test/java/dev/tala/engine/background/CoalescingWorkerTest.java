package dev.tala.engine.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CoalescingWorkerTest {

    @Test
    void requestsRacingWithStopAreDroppedNeverRejected() throws Exception {
        // The bug this guards: a flush finishing during close asked the already shut down
        // compaction executor for a pass and died with RejectedExecutionException.
        for (int round = 0; round < 200; round++) {
            AtomicInteger passes = new AtomicInteger();
            CoalescingWorker worker = new CoalescingWorker("test-worker", passes::incrementAndGet);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            Thread requester = new Thread(() -> {
                started.countDown();
                try {
                    for (int i = 0; i < 10_000; i++) {
                        worker.request();
                    }
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            requester.start();
            started.await();
            assertTrue(worker.stop(Duration.ofSeconds(10)), "worker ended");
            requester.join();
            assertEquals(null, thrown.get(), "request() after stop must not throw");
            int after = passes.get();
            worker.request(); // the executor has terminated, so a pass could only run on this thread
            assertEquals(after, passes.get(), "no pass runs after stop");
        }
    }

    @Test
    void requestsWhileAPassIsQueuedFoldIntoIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstRunning = new CountDownLatch(1);
        AtomicInteger passes = new AtomicInteger();
        CoalescingWorker worker = new CoalescingWorker("test-worker", () -> {
            passes.incrementAndGet();
            firstRunning.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.request();
        assertTrue(firstRunning.await(10, TimeUnit.SECONDS));
        for (int i = 0; i < 100; i++) {
            worker.request(); // the first pass is running, so these queue exactly one more
        }
        release.countDown();
        assertFalse(worker.stopping());
        assertTrue(worker.stop(Duration.ofSeconds(10)));
        assertEquals(2, passes.get(), "one running pass and one folded follow-up");
    }
}
