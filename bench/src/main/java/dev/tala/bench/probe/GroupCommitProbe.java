package dev.tala.bench.probe;

import com.sun.management.OperatingSystemMXBean;
import dev.tala.bench.compare.BenchData;
import dev.tala.bench.compare.Latencies;
import dev.tala.bench.compare.WalFill;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.wal.Durability;
import dev.tala.wal.WalOp;
import dev.tala.wal.WriteAheadLog;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How well group commit groups: N threads write 1.6 KB records in SYNC mode for four seconds
 * (after one of warm-up) and the log's own counters say how many records each force served,
 * how long a force took, and how long the disk waited between forces, which is what hand-offs
 * between the writers cost, and how many cores the process kept busy. The force latency drifts
 * too much from run to run here for rates alone to compare two ways of handing off. The
 * forces are also timed one by one through the file layer, and their percentiles printed: the
 * mean hides how widely a disk's forces vary.
 * With {@code reuse}, the log writes into a reused (zero-filled) file, as with
 * {@code Options.walRecycleFiles}; with {@code virtual}, the writers are virtual threads; with
 * {@code batch=N}, each writer appends N records and then waits once, for the last of them.
 * One writer with {@code batch=16} makes groups of 16 with no hand-off at all: the ceiling
 * for 16 writers that group perfectly.
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.GroupCommitProbe 16 [reuse] [virtual] [batch=N]}.
 */
public final class GroupCommitProbe {
    /**
     * 1 GB of records (1.72 KB each): more than a run logs in its five seconds at 100,000 writes/s.
     * The first version held 150,000 records (258 MB); runs faster than about 30,000 writes/s
     * outgrew it, and the rest of their forces grew the file, which costs 1.5–2x as much as
     * overwriting.
     */
    private static final int REUSED_FILE_RECORDS = 600_000;

    private GroupCommitProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeArgs parsed = ProbeArgs.parse(args);
        int threads = parsed.threads();
        boolean reuse = parsed.has("reuse");
        boolean virtual = parsed.has("virtual");
        int batch = parsed.number("batch", 1);
        List<Intent> intents = BenchData.generate(1024, 7).intents();
        Path dir = Files.createTempDirectory("group-commit");
        ForceTimings timings = new ForceTimings(LocalFileLayer.INSTANCE);
        try (WriteAheadLog wal = WriteAheadLog.create(timings, dir, 1, 0, Durability.sync(),
                reuse ? 1 : 0)) {
            Path reusedFile = dir.resolve(DatabaseLayout.walFileName(3));
            long reusedBytes = 0;
            if (reuse) {
                writeReusedFile(wal, dir, intents);
                reusedBytes = Files.size(reusedFile);
            }
            ProbeWriters writers = ProbeWriters.start(threads, virtual, writer -> round -> {
                long first = writer + round * batch;
                long s = 0;
                for (int j = 0; j < batch; j++) {
                    s = wal.append(List.of(new WalOp.Put(intents.get((int) ((first + j) & 1023)))));
                }
                wal.awaitDurable(s);
                return batch;
            });
            Thread.sleep(1000);
            long n0 = writers.acknowledged();
            WriteAheadLog.Stats s0 = wal.stats();
            OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            timings.recording = true;
            Thread.sleep(4000);
            timings.recording = false;
            long cpu1 = os.getProcessCpuTime();
            long n1 = writers.acknowledged();
            WriteAheadLog.Stats s1 = wal.stats();
            double seconds = (System.nanoTime() - t0) / 1e9;
            writers.stop();
            long forces = s1.forces() - s0.forces();
            double forceMicros = (s1.forceNanos() - s0.forceNanos()) / 1e3;
            System.out.printf("%d %sthreads%s%s: %,.0f acknowledged writes/s, %.1f records per force, %,.0f forces/s,"
                            + " force %.0f µs, between forces %.0f µs, disk busy forcing %.0f%%, %.2f cores busy%n",
                    threads, virtual ? "virtual " : "", reuse ? " (reused file)" : "",
                    batch > 1 ? ", " + batch + " records per wait" : "", (n1 - n0) / seconds,
                    (double) (s1.records() - s0.records()) / forces, forces / seconds, forceMicros / forces,
                    (seconds * 1e6 - forceMicros) / forces, forceMicros / (seconds * 1e4),
                    (cpu1 - cpu0) / 1e9 / seconds);
            System.out.println("  " + timings.percentiles());
            if (reuse && Files.size(reusedFile) > reusedBytes) {
                System.out.printf("  the run outgrew the reused file (%,d bytes, now %,d): its last forces grew the file%n",
                        reusedBytes, Files.size(reusedFile));
            }
        } finally {
            FileTrees.delete(dir);
        }
    }

    /** Keeps the duration of each force made while {@link #recording} is set. */
    private static final class ForceTimings extends ForwardingFileLayer {
        /** Room for more forces than a disk makes in four seconds. */
        final Latencies forces = new Latencies(1 << 20);
        volatile boolean recording;

        ForceTimings(FileLayer inner) {
            super(inner);
        }

        @Override
        protected void afterForce(Path file, long nanos) {
            if (recording) {
                forces.record(nanos);
            }
        }

        String percentiles() {
            if (forces.count() == 0) {
                return "no forces timed";
            }
            return String.format("forces timed: %,d; p10 %.0f µs, p50 %.0f µs, p90 %.0f µs, p99 %.0f µs",
                    forces.count(), forces.percentileMicros(0.10), forces.percentileMicros(0.50),
                    forces.percentileMicros(0.90), forces.percentileMicros(0.99));
        }
    }

    /**
     * Moves the log to a reused file long enough for the whole run: fills the first file with
     * 1 GB, retires it, waits until it is zero-filled and takes it.
     */
    private static void writeReusedFile(WriteAheadLog wal, Path dir, List<Intent> intents) throws Exception {
        WalFill.fill(wal, intents, REUSED_FILE_RECORDS);
        long filled = wal.rotate(2);
        wal.retire(dir.resolve(DatabaseLayout.walFileName(filled)));
        while (wal.stats().freeFiles() == 0) {
            Thread.sleep(10);
        }
        wal.rotate(3);
        if (wal.stats().filesReused() != 1) {
            throw new IllegalStateException("the log did not take the retired file");
        }
    }
}
