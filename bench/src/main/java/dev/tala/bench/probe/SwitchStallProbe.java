package dev.tala.bench.probe;

import dev.tala.bench.compare.BenchData;
import dev.tala.core.io.FileTrees;
import dev.tala.core.model.Intent;
import dev.tala.engine.DbStats;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * What memtable switches cost a writer without sync: one thread puts 200,000 intents (about
 * five 64 MiB memtables) with NONE durability, twice in one JVM (the second is the warm one), and
 * prints the rate, the latency percentiles, the puts that took over 10 ms and their total (a
 * switch forces the finished WAL file while every writer waits), and the time the log spent in
 * forces, which without sync are the switches' and the close's.
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.SwitchStallProbe}.
 */
public final class SwitchStallProbe {
    private static final long STALL_NANOS = 10_000_000;

    private SwitchStallProbe() {
    }

    public static void main(String[] args) throws Exception {
        List<Intent> intents = BenchData.generate(200_000, 1).intents();
        for (int round = 1; round <= 2; round++) {
            Path dir = Files.createTempDirectory("switch-stall");
            try (TalaDB db = TalaDB.open(dir, Options.builder().dimension(BenchData.DIMENSION)
                    .durability(Durability.none()).build())) {
                long[] nanos = new long[intents.size()];
                long start = System.nanoTime();
                for (int i = 0; i < intents.size(); i++) {
                    long t = System.nanoTime();
                    db.put(intents.get(i));
                    nanos[i] = System.nanoTime() - t;
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                long stalls = Arrays.stream(nanos).filter(n -> n > STALL_NANOS).count();
                long stalled = Arrays.stream(nanos).filter(n -> n > STALL_NANOS).sum();
                Arrays.sort(nanos);
                DbStats stats = db.stats();
                System.out.printf("round %d: %,.0f puts/s; p50 %.1f µs, p99 %.1f µs, max %.1f ms; %d puts over 10 ms,"
                                + " %.0f ms in all; %d WAL forces, %.0f ms forcing; %d flushes%n", round,
                        intents.size() / seconds, nanos[nanos.length / 2] / 1e3, nanos[nanos.length * 99 / 100] / 1e3,
                        nanos[nanos.length - 1] / 1e6, stalls, stalled / 1e6, stats.walForces(),
                        stats.walForceMicros() / 1e3, stats.flushes());
            } finally {
                FileTrees.delete(dir);
            }
        }
    }
}
