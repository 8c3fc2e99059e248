package dev.tala.bench.jmh;

import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentWriteOptions;
import dev.tala.segment.SegmentWriter;
import dev.tala.segment.format.TbfFormat;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * TBF segment micro-benchmarks: writing a flush-sized segment, bloom probes, a timestamp range
 * scan over a 100K-row column, and id lookups through the index.
 *
 * <p>Run with the project's JVM flags (the forked JVM inherits them), e.g.
 * {@code java @jvm.options -cp ... org.openjdk.jmh.Main SegmentBenchmarks}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SegmentBenchmarks {
    private static final int LOOKUP_ROWS = 100_000;
    private static final int PROBES = 4096;
    private static final long BASE_TS = 1_700_000_000_000_000_000L;

    static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }


    static List<IntentVersion> intents(int rows, int dim, long seed) {
        Random r = new Random(seed);
        TreeSet<IntentId> ids = new TreeSet<>();
        while (ids.size() < rows) {
            ids.add(IntentId.of(r.nextLong(), r.nextLong()));
        }
        List<IntentId> sorted = new ArrayList<>(ids);
        List<IntentVersion> out = new ArrayList<>(rows);
        long seq = 1;
        for (IntentId id : sorted) {
            float[] v = new float[dim];
            for (int i = 0; i < dim; i++) {
                v[i] = (float) r.nextGaussian();
            }
            Intent intent = Intent.builder().id(id)
                    .timestampNs(BASE_TS + r.nextInt(1_000_000_000))
                    .contextHash(r.nextLong())
                    .confidence(r.nextFloat())
                    .status(Status.SUCCESS)
                    .command("run job " + r.nextInt(100))
                    .embedding(v)
                    .addEdge(sorted.get(r.nextInt(rows)), Relation.CAUSAL, 0.5f)
                    .build();
            out.add(IntentVersion.put(seq++, intent));
        }
        return out;
    }

    /** A 1,000-intent, dim-384 f32 segment as a memtable flush would write it. */
    @State(Scope.Thread)
    public static class WriteState {
        List<IntentVersion> versions;
        SegmentWriter writer;
        Path dir;
        Path file;

        @Setup(Level.Trial)
        public void setUp() {
            versions = intents(1_000, 384, 1);
            writer = new SegmentWriter(LocalFileLayer.INSTANCE);
            dir = tempDir("tbf-bench-write");
            file = dir.resolve("segment.tbf");
        }

        /**
         * A flush writes a new file; removing the previous output here keeps the cost of truncating
         * 1.6 MB of page cache (which dominated otherwise) out of the measurement. The invocation
         * takes milliseconds, so a per-invocation fixture does not distort it.
         */
        @Setup(Level.Invocation)
        public void removePrevious() throws IOException {
            Files.deleteIfExists(file);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            FileTrees.delete(dir);
        }
    }

    /**
     * Encoding plus writes into the page cache: the writer's forces are switched off, so the disk's
     * fsync latency (which {@link #writeSegment1000x384Synced} includes) does not dominate.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long writeSegment1000x384(WriteState s) throws IOException {
        SegmentWriteOptions options = SegmentWriteOptions.of(1, BASE_TS, 384, EmbeddingType.F32).withSync(false);
        return s.writer.write(s.file, options, s.versions).fileSize();
    }

    /** The same write with both forces, as the engine does it. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long writeSegment1000x384Synced(WriteState s) throws IOException {
        SegmentWriteOptions options = SegmentWriteOptions.of(1, BASE_TS, 384, EmbeddingType.F32);
        return s.writer.write(s.file, options, s.versions).fileSize();
    }

    /** A 100,000-row segment (tiny embeddings: these benchmarks read ids and timestamps only). */
    @State(Scope.Benchmark)
    public static class LookupState {
        Path dir;
        SegmentReader reader;
        IntentId[] present;
        IntentId[] absent;
        long from;
        long to;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            dir = tempDir("tbf-bench-lookup");
            Path file = dir.resolve("lookup.tbf");
            List<IntentVersion> versions = intents(LOOKUP_ROWS, 8, 2);
            new SegmentWriter(LocalFileLayer.INSTANCE)
                    .write(file, SegmentWriteOptions.of(2, BASE_TS, 8, EmbeddingType.INT8).withSync(false), versions);
            reader = SegmentReader.open(LocalFileLayer.INSTANCE, file);
            Random r = new Random(3);
            present = new IntentId[PROBES];
            absent = new IntentId[PROBES];
            for (int i = 0; i < PROBES; i++) {
                present[i] = versions.get(r.nextInt(LOOKUP_ROWS)).id();
                absent[i] = IntentId.of(r.nextLong(), r.nextLong());
            }
            // About a tenth of the rows fall into the range.
            from = BASE_TS + 400_000_000L;
            to = BASE_TS + 500_000_000L;
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            reader.close();
            FileTrees.delete(dir);
        }
    }

    /** Cycles through the probe ids so that successive calls do not hit the same cache lines. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        int advance() {
            next = (next + 1) & (PROBES - 1);
            return next;
        }
    }

    @Benchmark
    public boolean bloomProbePresent(LookupState s, Cursor c) {
        return s.reader.mightContain(s.present[c.advance()]);
    }

    @Benchmark
    public boolean bloomProbeAbsent(LookupState s, Cursor c) {
        return s.reader.mightContain(s.absent[c.advance()]);
    }

    @Benchmark
    public int findPresent(LookupState s, Cursor c) {
        return s.reader.find(s.present[c.advance()]);
    }

    @Benchmark
    public int findAbsent(LookupState s, Cursor c) {
        return s.reader.find(s.absent[c.advance()]);
    }

    /** Counts timestamps in [from, to] over the 100K-row column, one value at a time. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int timestampRangeScanScalar(LookupState s) {
        MemorySegment column = s.reader.timestampColumn();
        int rows = (int) (column.byteSize() / 8);
        long from = s.from;
        long to = s.to;
        int count = 0;
        // An int index and a branch-free test: ~10% of the rows match at random, which a branch mispredicts.
        for (int i = 0; i < rows; i++) {
            long ts = column.get(TbfFormat.U64, i * 8L);
            count += (ts >= from) & (ts <= to) ? 1 : 0;
        }
        return count;
    }

    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;

    /** The same count with the Vector API: compare whole lanes, count mask bits. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int timestampRangeScanVector(LookupState s) {
        MemorySegment column = s.reader.timestampColumn();
        long rows = column.byteSize() / 8;
        long from = s.from;
        long to = s.to;
        LongVector low = LongVector.broadcast(LONGS, from);
        LongVector high = LongVector.broadcast(LONGS, to);
        long vectorRows = rows - rows % LONGS.length();
        int count = 0;
        long i = 0;
        for (; i < vectorRows; i += LONGS.length()) {
            LongVector v = LongVector.fromMemorySegment(LONGS, column, i * 8, ByteOrder.LITTLE_ENDIAN);
            VectorMask<Long> in = v.compare(VectorOperators.GE, low).and(v.compare(VectorOperators.LE, high));
            count += in.trueCount();
        }
        for (; i < rows; i++) {
            long ts = column.get(TbfFormat.U64, i * 8);
            if (ts >= from && ts <= to) {
                count++;
            }
        }
        return count;
    }
}
