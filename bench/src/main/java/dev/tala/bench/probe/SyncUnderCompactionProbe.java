package dev.tala.bench.probe;

import dev.tala.bench.compare.BenchData;
import dev.tala.bench.compare.StripedPuts;
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
 * The SYNC phase of {@code tala bench} on its own: 200,000 intents without sync, close, reopen
 * with SYNC, and 16 threads write 8,000 intents. Without moves the reopen finds four or five
 * flushed segments and starts a merge of all of them, which runs while the writers do; with
 * moves (the default) those segments, which share no ids, were already moved during the ingest.
 * Arguments pick what runs beside the writers: {@code compaction} (the default, as in the
 * bench before stop 25, which now waits for quiet as {@code idle} does), {@code none}
 * (background compaction off), {@code idle} (wait until it is done),
 * {@code limit=N} (compaction limited to N MiB/s) or {@code merge} (as {@code compaction}, but
 * every compaction rewrites its inputs: moves off in both phases, as before moves existed).
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.SyncUnderCompactionProbe [compaction|none|idle|limit=N|merge]}.
 */
public final class SyncUnderCompactionProbe {
    private static final int INTENTS = 200_000;
    private static final int THREADS = 16;
    private static final int WRITES_PER_THREAD = 500;

    private SyncUnderCompactionProbe() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "compaction";
        long limit = mode.startsWith("limit=") ? Long.parseLong(mode.substring(6)) << 20 : 0;
        Options base = Options.builder().dimension(BenchData.DIMENSION).durability(Durability.none())
                .compactionMoves(!mode.equals("merge")).build();
        Options sync = base.toBuilder().durability(Durability.sync()).backgroundCompaction(!mode.equals("none"))
                .compactionBytesPerSecond(limit).build();
        List<Intent> extra = BenchData.generate(THREADS * WRITES_PER_THREAD, 2).intents();
        Path dir = Files.createTempDirectory("sync-under-compaction");
        try {
            try (TalaDB db = TalaDB.open(dir, base)) {
                BenchData.generate(INTENTS, 1).intents().forEach(db::put);
            }
            try (TalaDB db = TalaDB.open(dir, sync)) {
                long deadline = System.nanoTime() + 120_000_000_000L;
                while (mode.equals("idle") && db.stats().pendingCompactionBytes() > 0) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("compaction still pending after two minutes");
                    }
                    Thread.sleep(100);
                }
                DbStats before = db.stats();
                double seconds = StripedPuts.run(extra, THREADS, db::put).wallNanos() / 1e9;
                DbStats after = db.stats();
                long forces = after.walForces() - before.walForces();
                System.out.printf("%s: %,.0f puts/s, %.1f records per force, compactions finished %d (moves %d),"
                        + " flushes %d%n", mode, extra.size() / seconds, (double) extra.size() / forces,
                        after.compactions() - before.compactions(), after.compactionMoves() - before.compactionMoves(),
                        after.flushes() - before.flushes());
            }
        } finally {
            FileTrees.delete(dir);
        }
    }
}
