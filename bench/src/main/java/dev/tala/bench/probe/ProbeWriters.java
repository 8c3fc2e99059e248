package dev.tala.bench.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * The writers of the group-commit probes: N threads, platform or virtual, each repeating its
 * own step until stopped, and one count of the writes they had acknowledged. A writer that
 * fails stops; {@link #stop} then throws its failure, so that a probe never prints a rate that
 * a dead writer made wrong.
 */
final class ProbeWriters {
    /** One round of a writer's work; returns how many writes it acknowledged. */
    @FunctionalInterface
    interface Step {
        int run(long round) throws Exception;
    }

    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    private ProbeWriters() {
    }

    /** Starts {@code count} writers; writer {@code w} runs the step {@code stepOfWriter.apply(w)} builds. */
    static ProbeWriters start(int count, boolean virtual, IntFunction<Step> stepOfWriter) {
        ProbeWriters writers = new ProbeWriters();
        for (int w = 0; w < count; w++) {
            Step step = stepOfWriter.apply(w);
            Thread thread = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).unstarted(() -> {
                try {
                    for (long round = 0; !writers.stop.get(); round++) {
                        writers.acknowledged.addAndGet(step.run(round));
                    }
                } catch (Exception e) {
                    writers.failure.compareAndSet(null, e);
                }
            });
            thread.start();
            writers.threads.add(thread);
        }
        return writers;
    }

    /** Writes acknowledged so far, by all writers together. */
    long acknowledged() {
        return acknowledged.get();
    }

    /**
     * Stops every writer after its current round and waits for it to end.
     *
     * @throws IllegalStateException if a writer failed, with the first failure as its cause
     */
    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a probe writer failed", failure.get());
        }
    }
}
