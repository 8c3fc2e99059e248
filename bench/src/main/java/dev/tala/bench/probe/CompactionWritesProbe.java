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

/**
 * What background compaction writes for the ingest of {@code tala bench --write-amp 1000000},
 * TalaDB alone: a million intents in chunks of 50,000, without sync, then a flush and a wait
 * until nothing is pending. Prints the compactions, how many were moves, and the bytes they
 * read and wrote. The first argument turns moves {@code on} or {@code off}; the second is
 * {@code ordered} (each chunk's clock runs on from the last, as the bench now generates them) or
 * {@code interleaved} (each chunk's clock restarts, as the bench did before, so every chunk's
 * ids fall among the earlier ones').
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.CompactionWritesProbe on|off ordered|interleaved}.
 */
public final class CompactionWritesProbe {
    private static final int INTENTS = 1_000_000;
    private static final int CHUNK = 50_000;

    private CompactionWritesProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: CompactionWritesProbe on|off ordered|interleaved");
        }
        boolean moves = args[0].equals("on");
        boolean ordered = args[1].equals("ordered");
        Path dir = Files.createTempDirectory("compaction-writes");
        try (TalaDB db = TalaDB.open(dir, Options.builder().dimension(BenchData.DIMENSION)
                .durability(Durability.none()).compactionMoves(moves).build())) {
            BenchData chunk = null;
            for (int n = 0; n < INTENTS / CHUNK; n++) {
                long seed = 1_000 + n;
                chunk = chunk != null && ordered ? BenchData.after(chunk, CHUNK, seed) : BenchData.generate(CHUNK, seed);
                for (Intent intent : chunk.intents()) {
                    db.put(intent);
                }
            }
            db.flush();
            DbStats s = db.stats();
            while (s.pendingCompactionBytes() > 0) {
                Thread.sleep(100);
                s = db.stats();
            }
            System.out.printf("moves %s, %s: %d compactions (%d moves), %,d MiB read, %,d MiB written, %d segments%n",
                    args[0], args[1], s.compactions(), s.compactionMoves(), s.compactionBytesRead() >> 20,
                    s.compactionBytesWritten() >> 20, s.segments());
        } finally {
            FileTrees.delete(dir);
        }
    }
}
