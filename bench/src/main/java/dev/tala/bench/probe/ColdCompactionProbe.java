package dev.tala.bench.probe;

import com.sun.management.OperatingSystemMXBean;
import dev.tala.bench.compare.BenchData;
import dev.tala.compaction.CompactionProgress;
import dev.tala.core.io.FileTrees;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The first compaction a process runs, as in {@code tala bench}: 200,000 intents written
 * without sync, the database closed and opened again, two seconds' pause, then one full
 * compaction while the JIT is still compiling its path. Prints its wall time, the CPU time of the thread that ran it (and
 * the user part), and the CPU time of the whole process meanwhile, which includes the JIT
 * compiler threads. Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.ColdCompactionProbe}.
 */
public final class ColdCompactionProbe {
    private static final int INTENTS = 200_000;
    /** Lets the background work an open starts (the flush of the replayed WAL) mostly finish first. */
    private static final long OPEN_SETTLE_MILLIS = 2_000;

    private ColdCompactionProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("cold-compaction");
        Options options = Options.builder().dimension(BenchData.DIMENSION).durability(Durability.none())
                .backgroundCompaction(false).build();
        try {
            try (TalaDB db = TalaDB.open(dir, options)) {
                BenchData.generate(INTENTS, 1).intents().forEach(db::put);
            }
            try (TalaDB db = TalaDB.open(dir, options)) {
                Thread.sleep(OPEN_SETTLE_MILLIS);
                OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                long process0 = os.getProcessCpuTime();
                long cpu0 = threads.getCurrentThreadCpuTime();
                long user0 = threads.getCurrentThreadUserTime();
                long start = System.nanoTime();
                db.compact(CompactionProgress.Listener.NONE);
                System.out.printf("first compaction %.2f s, its thread's CPU %.2f s (user %.2f s),"
                                + " the process's CPU %.2f s%n", (System.nanoTime() - start) / 1e9,
                        (threads.getCurrentThreadCpuTime() - cpu0) / 1e9,
                        (threads.getCurrentThreadUserTime() - user0) / 1e9,
                        (os.getProcessCpuTime() - process0) / 1e9);
            }
        } finally {
            FileTrees.delete(dir);
        }
    }
}
