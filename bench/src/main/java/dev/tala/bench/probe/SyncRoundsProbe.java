package dev.tala.bench.probe;

import dev.tala.bench.compare.BenchData;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.engine.DbStats;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SYNC phase of {@code tala bench --quick}, repeated: {@code ingest=N} intents (default
 * 50,000) without sync, close, reopen with SYNC, then {@code rounds=R} rounds (default 40) in
 * which 16 threads write {@code writes=W} intents each (default 150, the quick run's phase
 * before stop 25). Each round prints its rate, the WAL forces that took over 1 ms, and what
 * ran beside it ({@code flush} when a memtable was frozen or a flush finished, {@code compaction}
 * when one finished or was pending). The summary splits the rounds after the first by that mark,
 * so the cost of background work and the first round's warm-up can be read apart.
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.SyncRoundsProbe 16 [ingest=N] [rounds=R] [writes=W]}.
 */
public final class SyncRoundsProbe {
    private static final long SLOW_FORCE_NANOS = 1_000_000;

    private SyncRoundsProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeArgs parsed = ProbeArgs.parse(args);
        int threads = parsed.threads();
        int ingest = parsed.number("ingest", 50_000);
        int rounds = parsed.number("rounds", 40);
        int writes = parsed.number("writes", 150);
        int perRound = threads * writes;
        SlowForces slow = new SlowForces(LocalFileLayer.INSTANCE);
        Options base = Options.builder().dimension(BenchData.DIMENSION).durability(Durability.none()).build();
        Options sync = base.toBuilder().durability(Durability.sync()).fileLayer(slow).build();
        List<Intent> extra = BenchData.generate(rounds * perRound, 2).intents();
        Path dir = Files.createTempDirectory("sync-rounds");
        try {
            try (TalaDB db = TalaDB.open(dir, base)) {
                BenchData.generate(ingest, 1).intents().forEach(db::put);
            }
            long[] quietPutsNanos = new long[2];
            long[] busyPutsNanos = new long[2];
            try (TalaDB db = TalaDB.open(dir, sync)) {
                for (int round = 0; round < rounds; round++) {
                    DbStats before = db.stats();
                    long slowBefore = slow.count.get();
                    long nanos = writeRound(db, extra.subList(round * perRound, (round + 1) * perRound), threads);
                    DbStats after = db.stats();
                    boolean flush = before.frozenMemtables() > 0 || after.frozenMemtables() > 0
                            || after.flushes() > before.flushes();
                    boolean compaction = after.compactions() > before.compactions()
                            || after.pendingCompactionBytes() > 0;
                    String beside = (flush ? " flush" : "") + (compaction ? " compaction" : "");
                    System.out.printf("round %2d: %,7.0f puts/s, %3d forces over 1 ms%s%n", round,
                            perRound / (nanos / 1e9), slow.count.get() - slowBefore, beside);
                    if (round > 0) {
                        long[] sum = beside.isEmpty() ? quietPutsNanos : busyPutsNanos;
                        sum[0] += perRound;
                        sum[1] += nanos;
                    }
                }
            }
            long[] all = {quietPutsNanos[0] + busyPutsNanos[0], quietPutsNanos[1] + busyPutsNanos[1]};
            System.out.printf("after the first round: %s, %s with nothing beside, %s beside a flush or compaction%n",
                    rate(all), rate(quietPutsNanos), rate(busyPutsNanos));
        } finally {
            FileTrees.delete(dir);
        }
    }

    private static String rate(long[] putsNanos) {
        return putsNanos[1] == 0 ? "no rounds" : String.format("%,.0f puts/s", putsNanos[0] / (putsNanos[1] / 1e9));
    }

    /** Has {@code threads} writers put {@code intents} between them; returns the wall time. */
    private static long writeRound(TalaDB db, List<Intent> intents, int threads) throws InterruptedException {
        List<Thread> writers = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int first = t;
            writers.add(Thread.ofPlatform().start(() -> {
                for (int i = first; i < intents.size(); i += threads) {
                    db.put(intents.get(i));
                }
            }));
        }
        for (Thread w : writers) {
            w.join();
        }
        return System.nanoTime() - start;
    }

    /** Counts the forces of WAL files that took longer than {@link #SLOW_FORCE_NANOS}. */
    private static final class SlowForces extends ForwardingFileLayer {
        final AtomicLong count = new AtomicLong();

        SlowForces(FileLayer inner) {
            super(inner);
        }

        @Override
        protected void afterForce(Path file, long nanos) {
            if (nanos > SLOW_FORCE_NANOS && file.getFileName().toString().endsWith(".wal")) {
                count.incrementAndGet();
            }
        }
    }
}
