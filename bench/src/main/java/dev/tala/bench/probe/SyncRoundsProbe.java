package dev.tala.bench.probe;

import dev.tala.bench.compare.BenchData;
import dev.tala.bench.compare.StripedPuts;
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
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SYNC phase of {@code tala bench --quick} as it was before stop 25, repeated:
 * {@code ingest=N} intents (default 50,000) without sync, close, reopen with SYNC, then
 * {@code rounds=R} rounds (default 40) in which the writer threads (the first argument, 16 in
 * the bench) write {@code writes=W} intents each (default 150). Each round prints its rate, the
 * WAL forces that took over 1 ms, and what ran beside it ({@code flush} when a memtable was
 * frozen or a flush finished, {@code compaction} when one finished or was pending; a move, which
 * writes nothing, counts too). The summary splits the rounds after the first by that mark, so
 * the cost of background work and the first round's warm-up can be read apart. Every round's
 * intents are generated up front (1.6 KB each: about 150 MB with the defaults).
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
            Tally quiet = new Tally();
            Tally busy = new Tally();
            try (TalaDB db = TalaDB.open(dir, sync)) {
                for (int round = 0; round < rounds; round++) {
                    DbStats before = db.stats();
                    long slowBefore = slow.count.get();
                    long nanos = StripedPuts.run(extra.subList(round * perRound, (round + 1) * perRound), threads,
                            db::put).wallNanos();
                    DbStats after = db.stats();
                    boolean flush = before.frozenMemtables() > 0 || after.frozenMemtables() > 0
                            || after.flushes() > before.flushes();
                    boolean compaction = after.compactions() > before.compactions()
                            || after.pendingCompactionBytes() > 0;
                    String beside = (flush ? " flush" : "") + (compaction ? " compaction" : "");
                    System.out.printf("round %2d: %,7.0f puts/s, %3d forces over 1 ms%s%n", round,
                            perRound / (nanos / 1e9), slow.count.get() - slowBefore, beside);
                    if (round > 0) {
                        (flush || compaction ? busy : quiet).add(perRound, nanos);
                    }
                }
            }
            Tally all = new Tally();
            all.add(quiet.puts + busy.puts, quiet.nanos + busy.nanos);
            System.out.printf("after the first round: %s, %s with nothing beside, %s beside a flush or compaction%n",
                    all.rate(), quiet.rate(), busy.rate());
        } finally {
            FileTrees.delete(dir);
        }
    }

    /** Puts and the wall time they took, summed over rounds. */
    private static final class Tally {
        long puts;
        long nanos;

        void add(long roundPuts, long roundNanos) {
            puts += roundPuts;
            nanos += roundNanos;
        }

        String rate() {
            return nanos == 0 ? "no rounds" : String.format("%,.0f puts/s", puts / (nanos / 1e9));
        }
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
