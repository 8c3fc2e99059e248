package dev.tala.bench.compare;

import dev.tala.core.io.FileTrees;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Options;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * The same workload on TalaDB and on RocksDB, in one run, on one disk: ingest without sync
 * from one thread, ingest with sync from 16 threads, random gets, time-range scans, top-10
 * similarity search, a full compaction, reopen, and bytes on disk. Each store first warms up on
 * a small throwaway data set; then the stores run one after the other so they never compete.
 */
public final class SideBySide {
    /** How much of everything. */
    public record Settings(int intents, int syncThreads, int syncWritesPerThread, int gets, int scans, int searches,
                           int warmupIntents, int walRecycleFiles) {
        public static Settings quick() {
            return new Settings(50_000, 16, 500, 50_000, 100, 10, 10_000, 0);
        }

        public static Settings full() {
            return new Settings(200_000, 16, 500, 200_000, 500, 30, 20_000, 0);
        }

        /**
         * The same run with both stores keeping up to {@code files} finished WAL files for
         * reuse (TalaDB's {@code walRecycleFiles}, RocksDB's {@code recycle_log_file_num}).
         */
        public Settings withWalRecycleFiles(int files) {
            return new Settings(intents, syncThreads, syncWritesPerThread, gets, scans, searches, warmupIntents,
                    Options.checkWalRecycleFiles(files));
        }

        /** The quick run's shape at another size (a smoke run, or a closer look at one size). */
        public static Settings sized(int intents) {
            if (intents < 100) {
                throw new IllegalArgumentException("a side-by-side run needs at least 100 intents, not " + intents);
            }
            return new Settings(intents, 16, Math.min(500, Math.max(10, intents / 100)), intents,
                    Math.min(100, Math.max(10, intents / 500)), 10, Math.min(10_000, intents / 5), 0);
        }
    }

    /** One workload measured on both stores. Ratios are "TalaDB is this many times better". */
    public record Row(String workload, String unit, double tala, double rocks, double ratio,
                      double talaP50Micros, double talaP99Micros, double rocksP50Micros, double rocksP99Micros) {
    }

    /** Everything the run measured, plus what was compared and on what. */
    public record Report(String machine, Settings settings, Map<String, String> stores, List<Row> rows,
                         Map<String, Double> ratios, List<String> checks) {
    }

    private SideBySide() {
    }

    public static Report run(Settings s, Path workDir, PrintStream progress) throws Exception {
        BenchData data = BenchData.generate(s.intents(), 1);
        BenchData extra = BenchData.generate(s.syncThreads() * s.syncWritesPerThread(), 2);
        List<float[]> queries = BenchData.queries(s.searches(), 3);
        Map<String, Phases> results = new LinkedHashMap<>();
        Map<String, String> stores = new LinkedHashMap<>();
        int recycle = s.walRecycleFiles();
        for (Function<Path, Store> make : List.<Function<Path, Store>>of(dir -> new TalaStore(dir, recycle),
                dir -> new RocksStore(dir, false, recycle))) {
            warmUp(make.apply(workDir.resolve("warmup")), s);
            FileTrees.delete(workDir.resolve("warmup"));
            try (Store store = make.apply(workDir.resolve("store-" + results.size()))) {
                progress.println("benchmarking " + store.name() + " ...");
                results.put(store.name(), measure(store, s, data, extra, queries, progress));
                stores.put(store.name(), store.settings());
            }
            FileTrees.delete(workDir.resolve("store-" + (results.size() - 1)));
        }
        List<Phases> both = new ArrayList<>(results.values());
        return report(s, stores, both.get(0), both.get(1));
    }

    /** Everything measured on one store. */
    private static final class Phases {
        Latencies putNone;
        Latencies putSync;
        Latencies get;
        Latencies scan;
        Latencies search;
        double compactSeconds;
        double reopenSeconds;
        long bytes;
        long scanned;
        List<IntentId[]> searchResults = new ArrayList<>();
    }

    private static Phases measure(Store store, Settings s, BenchData data, BenchData extra, List<float[]> queries,
                                  PrintStream progress) throws Exception {
        Phases p = new Phases();
        store.open(false);
        p.putNone = timeEach(data.intents(), store::put);
        progress.printf("  ingest, no sync, 1 thread: %,.0f puts/s%n", p.putNone.opsPerSecond());
        store.close();

        store.open(true);
        // The stores leave different work from the reopen: RocksDB flushes the log it replays
        // while it opens, TalaDB keeps it in the memtable until that fills. Both start the timed
        // phase quiet, so that neither one's flush or compaction lands in the other's figure (and
        // the phases after it find both stores flushed).
        store.awaitQuiet();
        p.putSync = StripedPuts.run(extra.intents(), s.syncThreads(), store::put);
        progress.printf("  ingest, sync, %d threads: %,.0f puts/s%n", s.syncThreads(), p.putSync.opsPerSecond());

        SplittableRandom random = new SplittableRandom(4);
        List<IntentId> ids = new ArrayList<>(s.gets());
        for (int i = 0; i < s.gets(); i++) {
            ids.add(data.intents().get(random.nextInt(data.intents().size())).id());
        }
        p.get = timeEach(ids, id -> {
            if (!store.get(id)) {
                throw new IllegalStateException(store.name() + " lost " + id);
            }
        });
        progress.printf("  random get: %,.0f gets/s%n", p.get.opsPerSecond());

        long span = data.lastTimestampNs() - data.firstTimestampNs();
        List<long[]> windows = new ArrayList<>();
        for (int i = 0; i < s.scans(); i++) {
            long from = data.firstTimestampNs() + (long) (random.nextDouble() * span * 0.99);
            windows.add(new long[] {from, from + span / 100});
        }
        long[] scanned = new long[1];
        p.scan = timeEach(windows, w -> scanned[0] += store.scanCount(w[0], w[1]));
        p.scanned = scanned[0];
        progress.printf("  time-range scan (1%% of the range): %,.0f scans/s%n", p.scan.opsPerSecond());

        p.search = timeEach(queries, q -> p.searchResults.add(store.top10(q)));
        progress.printf("  top-10 search: %,.1f searches/s%n", p.search.opsPerSecond());

        long t0 = System.nanoTime();
        store.compactFull();
        p.compactSeconds = (System.nanoTime() - t0) / 1e9;
        progress.printf("  full compaction: %.2f s%n", p.compactSeconds);
        store.close();

        t0 = System.nanoTime();
        store.open(false);
        p.reopenSeconds = (System.nanoTime() - t0) / 1e9;
        store.close();
        p.bytes = store.bytesOnDisk();
        progress.printf("  reopen: %.1f ms, %,d bytes on disk%n", p.reopenSeconds * 1000, p.bytes);
        return p;
    }

    private interface Op<T> {
        void run(T item) throws Exception;
    }

    private static <T> Latencies timeEach(List<T> items, Op<T> op) throws Exception {
        Latencies l = new Latencies(items.size());
        long start = System.nanoTime();
        for (T item : items) {
            long t = System.nanoTime();
            op.run(item);
            l.record(System.nanoTime() - t);
        }
        l.wall(System.nanoTime() - start);
        return l;
    }

    /**
     * Runs each workload but the full compaction on a throwaway store, so that the measurements
     * that follow time compiled code rather than the JIT compiling it. The SYNC writers get a
     * round of their own: their waiting and waking is code no other phase runs, and without it
     * the measured SYNC phase was largely the JIT's warm-up for TalaDB (a native library has none).
     */
    private static void warmUp(Store store, Settings s) throws Exception {
        int intents = s.warmupIntents();
        BenchData warm = BenchData.generate(intents, 99);
        List<Intent> warmSync = BenchData.generate(intents, 97).intents();
        try (store) {
            store.open(false);
            for (Intent i : warm.intents()) {
                store.put(i);
            }
            for (int i = 0; i < intents; i++) {
                store.get(warm.intents().get(i).id());
            }
            for (int i = 0; i < 20; i++) {
                store.scanCount(warm.firstTimestampNs(), warm.lastTimestampNs());
            }
            for (float[] q : BenchData.queries(5, 98)) {
                store.top10(q);
            }
            store.close();
            store.open(true);
            StripedPuts.run(warmSync, s.syncThreads(), store::put);
        }
    }

    private static Report report(Settings s, Map<String, String> stores, Phases tala, Phases rocks) {
        List<Row> rows = new ArrayList<>();
        rows.add(rate("ingest, no sync, 1 thread", "puts/s", tala.putNone, rocks.putNone));
        rows.add(rate("ingest, sync, " + s.syncThreads() + " threads", "puts/s", tala.putSync, rocks.putSync));
        rows.add(rate("random get", "gets/s", tala.get, rocks.get));
        rows.add(rate("time-range scan, 1% of the range", "scans/s", tala.scan, rocks.scan));
        rows.add(rate("top-10 similarity search", "searches/s", tala.search, rocks.search));
        rows.add(new Row("full compaction", "seconds", tala.compactSeconds, rocks.compactSeconds,
                rocks.compactSeconds / tala.compactSeconds, 0, 0, 0, 0));
        rows.add(new Row("reopen", "ms", tala.reopenSeconds * 1000, rocks.reopenSeconds * 1000,
                rocks.reopenSeconds / tala.reopenSeconds, 0, 0, 0, 0));
        rows.add(new Row("bytes on disk", "MB", tala.bytes / 1e6, rocks.bytes / 1e6, (double) rocks.bytes / tala.bytes,
                0, 0, 0, 0));
        Map<String, Double> ratios = new LinkedHashMap<>();
        ratios.put("put", rows.get(0).ratio());
        ratios.put("put_sync", rows.get(1).ratio());
        ratios.put("get", rows.get(2).ratio());
        ratios.put("scan", rows.get(3).ratio());
        ratios.put("search", rows.get(4).ratio());
        ratios.put("compaction", rows.get(5).ratio());
        ratios.put("recovery", rows.get(6).ratio());
        ratios.put("space", rows.get(7).ratio());
        // Three significant digits: two decimals would print a 300x gap as 0.0, as if one side had not run.
        ratios.replaceAll((k, v) -> Double.isFinite(v) && v != 0
                ? new BigDecimal(v).round(new MathContext(3)).doubleValue() : v);
        List<String> checks = new ArrayList<>();
        checks.add(tala.scanned == rocks.scanned ? "scans returned the same " + tala.scanned + " intents on both"
                : "SCAN MISMATCH: TalaDB " + tala.scanned + " vs RocksDB " + rocks.scanned);
        int same = 0;
        for (int i = 0; i < tala.searchResults.size(); i++) {
            same += Arrays.equals(tala.searchResults.get(i), rocks.searchResults.get(i)) ? 1 : 0;
        }
        checks.add(same + " of " + tala.searchResults.size() + " searches returned the same top 10 on both");
        return new Report(machine(), s, stores, rows, ratios, checks);
    }

    private static Row rate(String workload, String unit, Latencies tala, Latencies rocks) {
        return new Row(workload, unit, tala.opsPerSecond(), rocks.opsPerSecond(), tala.opsPerSecond() / rocks.opsPerSecond(),
                tala.percentileMicros(0.50), tala.percentileMicros(0.99), rocks.percentileMicros(0.50),
                rocks.percentileMicros(0.99));
    }

    static String machine() {
        String cpu = "unknown CPU";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse(cpu);
        } catch (IOException e) {
            // not Linux: keep the generic name
        }
        return cpu + ", " + Runtime.getRuntime().availableProcessors() + " cores, "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB heap, Java " + Runtime.version();
    }

}
