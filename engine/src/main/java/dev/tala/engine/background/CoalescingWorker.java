package dev.tala.engine.background;

import dev.tala.core.concurrent.UninterruptibleWaits;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread that runs a pass whenever asked, with requests made while a pass is queued
 * folded into it. Requests may come from any thread, including the worker of another
 * CoalescingWorker, at any moment relative to {@link #stop}: a request that loses the race
 * with stop is dropped, never rejected with an exception on the requesting thread.
 */
public final class CoalescingWorker {
    private static final Logger LOG = LoggerFactory.getLogger(CoalescingWorker.class);
    private final Runnable pass;
    private final ExecutorService thread;
    private final AtomicBoolean queued = new AtomicBoolean();
    private final Object lifecycle = new Object();
    private volatile boolean stopping;

    public CoalescingWorker(String threadName, Runnable pass) {
        this.pass = pass;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Makes sure a pass starts after this call; cheap when one is already queued. */
    public void request() {
        if (stopping || !queued.compareAndSet(false, true)) {
            return;
        }
        // Checking and submitting under the lock stop() takes means the executor cannot shut
        // down between the two.
        synchronized (lifecycle) {
            if (!stopping) {
                thread.execute(this::runPass);
            }
        }
    }

    private void runPass() {
        queued.set(false);
        try {
            pass.run();
        } catch (RuntimeException | Error e) {
            // The pass records its own failures; this is the last guard against a stack trace
            // from a dying daemon thread on the embedder's stderr.
            LOG.error("background pass on {} ended by an unexpected error", Thread.currentThread().getName(), e);
        }
    }

    /** True once {@link #stop} was called; a long pass polls this to end early. */
    public boolean stopping() {
        return stopping;
    }

    /**
     * Refuses further requests and waits up to {@code patience} for the pass in progress.
     * It does not interrupt: an interrupt closes whatever file channel the worker is using.
     *
     * @return true if the worker has ended
     */
    public boolean stop(Duration patience) {
        synchronized (lifecycle) {
            stopping = true;
            thread.shutdown();
        }
        // A close from a cancelled task still waits: the pass may be reading what close unmaps next.
        return UninterruptibleWaits.awaitTermination(thread, patience);
    }

    /** Interrupts a pass that outlived {@link #stop}'s patience. */
    public void interrupt() {
        thread.shutdownNow();
    }
}
