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
import java.util.List;

/**
 * {@link GroupCommitProbe} through the engine: N threads put 1.6 KB intents into a new database
 * with SYNC durability for four seconds, after two of warm-up, and the database's own counters
 * say how many puts each WAL force served, how long a force took and how long the disk waited
 * between two forces. Memtables fill, switch and flush meanwhile, as they would in a service,
 * and the WAL files are new and growing (the default). The writers cycle through 4,096 intents,
 * so after the first 4,096 puts each one replaces a live intent. {@link SyncUnderCompactionProbe}
 * times a short burst right after an open instead, with the JIT still compiling the put path.
 * With {@code virtual}, the writers are virtual threads; with {@code recycle=N}, the database
 * keeps up to N finished WAL files for reuse ({@code Options.walRecycleFiles}).
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.EngineGroupCommitProbe 16 [virtual] [recycle=N]}.
 */
public final class EngineGroupCommitProbe {
    private static final int DISTINCT_INTENTS = 4096;

    private EngineGroupCommitProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeArgs parsed = ProbeArgs.parse(args);
        int threads = parsed.threads();
        boolean virtual = parsed.has("virtual");
        int recycle = parsed.number("recycle", 0);
        List<Intent> intents = BenchData.generate(DISTINCT_INTENTS, 3).intents();
        Options options = Options.builder().dimension(BenchData.DIMENSION).durability(Durability.sync())
                .walRecycleFiles(recycle).build();
        Path dir = Files.createTempDirectory("engine-group-commit");
        try (TalaDB db = TalaDB.open(dir, options)) {
            ProbeWriters writers = ProbeWriters.start(threads, virtual, writer -> round -> {
                db.put(intents.get((int) ((writer + round * threads) % DISTINCT_INTENTS)));
                return 1;
            });
            Thread.sleep(2000);
            DbStats s0 = db.stats();
            long n0 = writers.acknowledged();
            long t0 = System.nanoTime();
            Thread.sleep(4000);
            DbStats s1 = db.stats();
            long n1 = writers.acknowledged();
            double seconds = (System.nanoTime() - t0) / 1e9;
            writers.stop();
            long forces = s1.walForces() - s0.walForces();
            double forceMicros = s1.walForceMicros() - s0.walForceMicros();
            System.out.printf("%d %sthreads: %,.0f puts/s, %.1f puts per force, force %.0f µs,"
                            + " between forces %.0f µs, flushes %d, write stalls %d, WAL files reused %d%n",
                    threads, virtual ? "virtual " : "", (n1 - n0) / seconds, (double) (n1 - n0) / forces,
                    forceMicros / forces, (seconds * 1e6 - forceMicros) / forces, s1.flushes() - s0.flushes(),
                    s1.writeStalls() - s0.writeStalls(), s1.walFilesReused() - s0.walFilesReused());
        } finally {
            FileTrees.delete(dir);
        }
    }
}
