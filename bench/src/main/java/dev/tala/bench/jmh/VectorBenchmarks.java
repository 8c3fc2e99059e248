package dev.tala.bench.jmh;

import dev.tala.segment.EmbeddingCodec;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.vector.Hit;
import dev.tala.segment.vector.Metric;
import dev.tala.segment.vector.Query;
import dev.tala.segment.vector.ScalarKernels;
import dev.tala.segment.vector.TopK;
import dev.tala.segment.vector.VectorKernels;
import dev.tala.segment.vector.VectorScoring;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
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
 * Similarity-search kernels: one 384-d dot product (with the stored vector's squared norm, which
 * the kernels compute in the same pass) per stored dtype, an exact top-10 cosine search over
 * 200,000 x 384 f32 vectors on one thread, and the memory-bandwidth floor of that search: one
 * pass of the simplest possible sum over the same 200,000 x 1,536 bytes. The search goal is
 * {@code top10Cosine200kX384F32 / sumSameBytes200kX1536 <= 1.3}.
 *
 * <p>Run with the project's JVM flags (the forked JVM inherits them), e.g.
 * {@code java @jvm.options -cp ... org.openjdk.jmh.Main VectorBenchmarks}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VectorBenchmarks {
    private static final int DIM = 384;
    /** Vectors the single-vector benchmarks cycle through: 16 x 1,536 bytes stay in L1. */
    private static final int HOT_VECTORS = 16;
    private static final int CORPUS = 200_000;
    private static final int TOP = 10;
    /** Every TBF vector starts on a 64-byte boundary; so do these. */
    private static final long ALIGNMENT = 64;

    private static float[] randomVector(SplittableRandom r) {
        float[] v = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            v[i] = (float) (r.nextDouble() * 2 - 1);
        }
        return v;
    }

    /** A few stored vectors of one dtype, hot in cache, and a query. */
    @State(Scope.Thread)
    public static class Hot {
        @Param({"F32", "F16", "BF16", "INT8"})
        EmbeddingType type;
        Arena arena;
        MemorySegment vectors;
        long stride;
        Query query;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            SplittableRandom r = new SplittableRandom(7);
            stride = type.stride(DIM);
            arena = Arena.ofShared();
            vectors = arena.allocate(HOT_VECTORS * stride, ALIGNMENT);
            for (int s = 0; s < HOT_VECTORS; s++) {
                EmbeddingCodec.encode(type, randomVector(r), vectors, s * stride);
            }
            query = Query.of(randomVector(r));
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }

        long nextOffset() {
            next = (next + 1) & (HOT_VECTORS - 1);
            return next * stride;
        }
    }

    /** The SIMD kernel: dot product and squared norm of one stored 384-d vector. */
    @Benchmark
    public long dotAndNorm384(Hot s) {
        return VectorKernels.dotAndNorm(s.type, s.query, s.vectors, s.nextOffset());
    }

    /** The scalar reference on the same vectors, for the speed-up. */
    @Benchmark
    public long dotAndNorm384Scalar(Hot s) {
        return ScalarKernels.dotAndNorm(s.type, s.query, s.vectors, s.nextOffset());
    }

    /** 200,000 x 384 f32 vectors (307 MB, far beyond the caches) off-heap, 64-byte aligned. */
    @State(Scope.Benchmark)
    public static class Corpus {
        Arena arena;
        MemorySegment vectors;
        long stride;
        Query query;

        @Setup(Level.Trial)
        public void setUp() {
            stride = EmbeddingType.F32.stride(DIM);
            arena = Arena.ofShared();
            vectors = arena.allocate(CORPUS * stride, ALIGNMENT);
            SplittableRandom r = new SplittableRandom(11);
            long floats = vectors.byteSize() / Float.BYTES;
            for (long i = 0; i < floats; i++) {
                vectors.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) (r.nextDouble() * 2 - 1));
            }
            query = Query.of(randomVector(r));
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /** Exact search: cosine of every vector (one pass over each), the 10 best kept in a heap. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public List<Hit> top10Cosine200kX384F32(Corpus c) {
        TopK top = new TopK(TOP);
        VectorScoring.topK(c.vectors, c.stride, 0, CORPUS, EmbeddingType.F32, DIM, c.query, Metric.COSINE, 0, top);
        return top.sorted();
    }

    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;

    /** The floor: read the same bytes once with the simplest possible loop, one vector add per load. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long sumSameBytes200kX1536(Corpus c) {
        MemorySegment bytes = c.vectors;
        long step = LONGS.vectorByteSize();
        long end = bytes.byteSize() - bytes.byteSize() % step;
        LongVector sum = LongVector.zero(LONGS);
        for (long at = 0; at < end; at += step) {
            sum = sum.add(LongVector.fromMemorySegment(LONGS, bytes, at, ByteOrder.LITTLE_ENDIAN));
        }
        return sum.reduceLanes(VectorOperators.ADD);
    }
}
