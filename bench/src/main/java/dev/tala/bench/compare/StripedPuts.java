package dev.tala.bench.compare;

import dev.tala.core.model.Intent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Puts a list of intents from several platform threads at once, thread {@code t} taking the
 * intents at {@code t}, {@code t + threads}, ...: the concurrent writers of the SYNC phase and
 * of the probes that take it apart.
 */
public final class StripedPuts {
    /** Where a writer puts an intent. */
    public interface Sink {
        void put(Intent intent) throws Exception;
    }

    private StripedPuts() {
    }

    /**
     * Runs the writers to the end and returns every put's latency and the wall time. If a writer
     * fails, the others still finish their share, and the first failure is thrown: a rate that
     * a dead writer made would be wrong.
     */
    public static Latencies run(List<Intent> intents, int threads, Sink sink) throws Exception {
        Latencies latencies = new Latencies(intents.size());
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int first = t;
            writers.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = first; i < intents.size(); i += threads) {
                        long t0 = System.nanoTime();
                        sink.put(intents.get(i));
                        latencies.record(System.nanoTime() - t0);
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (Thread w : writers) {
            w.join();
        }
        latencies.wall(System.nanoTime() - start);
        if (failure.get() != null) {
            throw failure.get();
        }
        return latencies;
    }
}
