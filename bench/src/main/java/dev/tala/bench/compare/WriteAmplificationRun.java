package dev.tala.bench.compare;

import dev.tala.core.model.Intent;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Write amplification of one ingest on each store: {@code count} intents put without sync from
 * one thread, both stores left to compact in the background as they do by default, then flushed
 * and waited on until their compactions are done. The intents' clock runs on from chunk to
 * chunk, so ids arrive in time order, as a service writing intents as they happen sends them.
 * Each side's figure comes from its own counters (TalaDB's stats, RocksDB's statistics tickers
 * and its compaction-stats table).
 */
public final class WriteAmplificationRun {
    /** Intents are generated in chunks so that a million of them never sit on the heap at once. */
    private static final int CHUNK = 50_000;

    private WriteAmplificationRun() {
    }

    public record Result(int intents, Map<String, WriteCounts> counts, Map<String, Double> ingestSeconds,
                         Map<String, Long> bytesOnDisk) {
    }

    public static Result run(int count, Path work, PrintStream progress) throws Exception {
        Map<String, WriteCounts> counts = new LinkedHashMap<>();
        Map<String, Double> seconds = new LinkedHashMap<>();
        Map<String, Long> disk = new LinkedHashMap<>();
        for (Store store : new Store[] {new TalaStore(work.resolve("tala")), new RocksStore(work.resolve("rocks"), true, 0)}) {
            try (store) {
                store.open(false);
                long start = System.nanoTime();
                BenchData data = null;
                for (int done = 0, chunk = 0; done < count; chunk++) {
                    int n = Math.min(CHUNK, count - done);
                    data = data == null ? BenchData.generate(n, 1_000) : BenchData.after(data, n, 1_000 + chunk);
                    for (Intent intent : data.intents()) {
                        store.put(intent);
                    }
                    done += n;
                    progress.printf("  %s: %,d of %,d intents%n", store.name(), done, count);
                }
                store.awaitQuiet();
                seconds.put(store.name(), (System.nanoTime() - start) / 1e9);
                counts.put(store.name(), store.writeCounts());
                disk.put(store.name(), store.bytesOnDisk());
            }
        }
        return new Result(count, counts, seconds, disk);
    }
}
