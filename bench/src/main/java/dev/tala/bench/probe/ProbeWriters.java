package dev.tala.bench.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * The writers of the group-commit probes: N threads, platform or virtual, each repeating its
 * own step until stopped, and one count of the writes they had acknowledged.
 */
final class ProbeWriters {
    /** One round of a writer's work; returns how many writes it acknowledged. */
    @FunctionalInterface
    interface Step {
        int run(long round) throws Exception;
    }

    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong acknowledged = new AtomicLong();
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
                    throw new IllegalStateException("a probe writer failed", e);
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

    /** Stops every writer after its current round and waits for it to end. */
    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
