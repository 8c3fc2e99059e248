package dev.tala.bench.probe;

import dev.tala.bench.compare.BenchData;
import dev.tala.compaction.CompactionProgress;
import dev.tala.core.io.FileTrees;
import dev.tala.core.model.Intent;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The paths that decode stored rows, on one quiet database (no background compaction): a full
 * compaction of 200,000 intents, a second one after all of them are written again (400,000
 * rows in, 200,000 out), each with the CPU time (and the user part of it) of the thread that ran
 * it, then five rounds of 100,000 random gets and 100 time-range scans of
 * 1% of the range each, printing the best round. For comparing two builds on the same machine
 * in one sitting, which {@code tala bench}'s mixed run is too noisy for.
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.ReadPathProbe [label]}.
 */
public final class ReadPathProbe {
    private static final int INTENTS = 200_000;
    private static final int ROUNDS = 5;
    private static final int GETS = 100_000;
    private static final int SCANS = 100;

    private ReadPathProbe() {
    }

    public static void main(String[] args) throws Exception {
        String label = args.length > 0 ? args[0] : "this build";
        BenchData data = BenchData.generate(INTENTS, 1);
        List<Intent> intents = data.intents();
        Path dir = Files.createTempDirectory("read-path");
        try (TalaDB db = TalaDB.open(dir, Options.builder().dimension(BenchData.DIMENSION)
                .durability(Durability.none()).backgroundCompaction(false).build())) {
            intents.forEach(db::put);
            double[] first = secondsToCompact(db);
            intents.forEach(db::put);
            double[] second = secondsToCompact(db);
            SplittableRandom random = new SplittableRandom(4);
            long span = data.lastTimestampNs() - data.firstTimestampNs();
            double bestGets = 0;
            double bestScans = 0;
            for (int round = 0; round < ROUNDS; round++) {
                long start = System.nanoTime();
                for (int i = 0; i < GETS; i++) {
                    if (db.get(intents.get(random.nextInt(INTENTS)).id()).isEmpty()) {
                        throw new IllegalStateException("an intent went missing");
                    }
                }
                bestGets = Math.max(bestGets, GETS / secondsSince(start));
                start = System.nanoTime();
                for (int i = 0; i < SCANS; i++) {
                    long from = data.firstTimestampNs() + (long) (random.nextDouble() * span * 0.99);
                    try (var snapshot = db.snapshot()) {
                        snapshot.scan(from, from + span / 100, intent -> true);
                    }
                }
                bestScans = Math.max(bestScans, SCANS / secondsSince(start));
            }
            System.out.printf("%s: compactions %.2f s (CPU %.2f s, of it user %.2f s) and %.2f s (CPU %.2f s, "
                    + "user %.2f s); best round %,.0f gets/s, %,.1f scans/s%n", label, first[0], first[1], first[2],
                    second[0], second[1], second[2], bestGets, bestScans);
        } finally {
            FileTrees.delete(dir);
        }
    }

    /** Wall-clock and CPU seconds of a full compaction, which runs on the calling thread. */
    private static double[] secondsToCompact(TalaDB db) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu = threads.getCurrentThreadCpuTime();
        long user = threads.getCurrentThreadUserTime();
        long start = System.nanoTime();
        db.compact(CompactionProgress.Listener.NONE);
        return new double[] {secondsSince(start), (threads.getCurrentThreadCpuTime() - cpu) / 1e9,
            (threads.getCurrentThreadUserTime() - user) / 1e9};
    }

    private static double secondsSince(long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
