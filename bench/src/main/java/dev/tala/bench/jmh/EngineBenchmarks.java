package dev.tala.bench.jmh;

import dev.tala.bench.compare.BenchData;
import dev.tala.core.io.FileTrees;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.engine.open.StoredOptions;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Engine benchmarks: inserting 1.6 KB intents into a memtable, a put through the whole write
 * path (NONE durability), a point get and a 3-hop traversal on a compacted 100K-intent database,
 * and time-range scans and a time-filtered search of intents still in the memtable.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EngineBenchmarks {
    private static final int INTENTS = 100_000;

    @State(Scope.Benchmark)
    public static class Data {
        List<Intent> intents;
        int next;

        @Setup(Level.Trial)
        public void build() {
            intents = BenchData.generate(INTENTS, 11).intents();
        }

        Intent next() {
            Intent i = intents.get(next);
            next = (next + 1) % intents.size();
            return i;
        }
    }

    /** A memtable refilled from empty every 20,000 inserts, so its size stays realistic. */
    @State(Scope.Benchmark)
    public static class Memtable {
        MemTable memtable = new MemTable(1);
        long sequence;

        MemTable current() {
            if (++sequence % 20_000 == 0) {
                memtable = new MemTable(1);
            }
            return memtable;
        }
    }

    @Benchmark
    public MemTable memtableInsert(Data data, Memtable m) {
        MemTable table = m.current();
        table.add(IntentVersion.put(m.sequence, data.next()));
        return table;
    }

    /** A compacted 100K-intent database, opened for reads. */
    @State(Scope.Benchmark)
    public static class Loaded {
        Path dir;
        TalaDB db;
        List<IntentId> ids;
        int next;

        @Setup(Level.Trial)
        public void load() throws IOException {
            dir = Files.createTempDirectory("engine-bench");
            List<Intent> intents = BenchData.generate(INTENTS, 12).intents();
            db = TalaDB.open(dir, Options.builder().dimension(BenchData.DIMENSION).durability(Durability.none()).build());
            for (Intent i : intents) {
                db.put(i);
            }
            db.compact(p -> { });
            ids = intents.stream().map(Intent::id).toList();
        }

        IntentId nextId() {
            next = (next * 31 + 17) % ids.size();
            return ids.get(next);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            db.close();
            FileTrees.delete(dir);
        }
    }

    @Benchmark
    public Object get(Loaded l) {
        return l.db.get(l.nextId()).orElseThrow();
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public List<Hop> traverse3Hops(Loaded l) {
        return l.db.traverse(l.nextId(), 3, Set.of(), Direction.OUTGOING);
    }

    /**
     * A database whose 30,000 intents (about 48 MB, under the 64 MiB memtable) are all still in
     * its memtable: where the newest intents are, which is what "what happened in the last
     * minutes" asks for.
     */
    @State(Scope.Benchmark)
    public static class Recent {
        private static final int RECENT = 30_000;
        Path dir;
        TalaDB db;
        long first;
        long span;
        long next;
        float[] query;

        @Setup(Level.Trial)
        public void load() throws IOException {
            dir = Files.createTempDirectory("engine-recent");
            BenchData data = BenchData.generate(RECENT, 13);
            db = TalaDB.open(dir, Options.builder().dimension(BenchData.DIMENSION).durability(Durability.none()).build());
            data.intents().forEach(db::put);
            if (!db.liveSegments().isEmpty()) {
                throw new IllegalStateException("the intents were meant to stay in the memtable");
            }
            first = data.firstTimestampNs();
            span = data.lastTimestampNs() - first;
            query = data.intents().getLast().embedding();
        }

        /** The start of the next 1% of the time range, stepping through the whole range. */
        long nextFrom() {
            next = (next + 37) % 99;
            return first + next * (span / 100);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            db.close();
            FileTrees.delete(dir);
        }
    }

    /** The newest 1% of the time range (about 300 intents), all in the memtable. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public List<Intent> scanNewestPercent(Recent r) {
        return r.db.scan(r.first + r.span - r.span / 100, Long.MAX_VALUE, Integer.MAX_VALUE);
    }

    /** 1% of the time range (about 300 intents) somewhere in the memtable. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public List<Intent> scanPercentOfMemtable(Recent r) {
        long from = r.nextFrom();
        return r.db.scan(from, from + r.span / 100, Integer.MAX_VALUE);
    }

    /**
     * The top 10 of the newest 1% of the time range (about 300 intents) by similarity to one of
     * them, all in the memtable: "what recent intents look like this one".
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public List<SearchHit> searchNewestPercent(Recent r) {
        return r.db.search(r.query, 10, SearchFilter.ALL.withTimeRange(r.first + r.span - r.span / 100, Long.MAX_VALUE));
    }

    /**
     * An empty database taking puts with NONE durability, storing embeddings as {@code dtype}
     * (a lossy type converts each put's floats to what it reads back as, before the log).
     */
    @State(Scope.Benchmark)
    public static class Empty {
        @Param({"f32"})
        String dtype;
        Path dir;
        TalaDB db;

        @Setup(Level.Trial)
        public void open() throws IOException {
            dir = Files.createTempDirectory("engine-put");
            db = TalaDB.open(dir, Options.builder().dimension(BenchData.DIMENSION).durability(Durability.none())
                    .embeddingType(StoredOptions.parseType(dtype, "dtype")).build());
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            db.close();
            FileTrees.delete(dir);
        }
    }

    @Benchmark
    public long putNoSync(Data data, Empty e) {
        return e.db.put(data.next());
    }
}
