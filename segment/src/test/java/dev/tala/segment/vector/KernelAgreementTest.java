package dev.tala.segment.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.segment.EmbeddingType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Every SIMD kernel against the scalar reference, on stored vectors in heap and off-heap memory
 * segments at any alignment, for every dtype and dimensions 1..1000 (so every tail length).
 */
class KernelAgreementTest {
    private static final int SLOTS = 3;

    @Property(tries = 400)
    void simdKernelsAgreeWithTheReference(@ForAll EmbeddingType type, @ForAll @IntRange(min = 1, max = 1000) int dim,
            @ForAll @IntRange(min = 0, max = 63) int misalignment, @ForAll boolean offHeap, @ForAll long seed) {
        Random r = new Random(seed);
        long stride = type.stride(dim);
        long bytes = misalignment + SLOTS * stride;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = offHeap ? arena.allocate(bytes, 64) : MemorySegment.ofArray(new byte[(int) bytes]);
            for (int s = 0; s < SLOTS; s++) {
                long at = misalignment + s * stride;
                if (type == EmbeddingType.INT8 && r.nextBoolean()) {
                    StoredVectors.storeRawInt8(r, dim, region, at);
                } else {
                    StoredVectors.store(type, StoredVectors.vector(r, dim), region, at);
                }
            }
            Query query = Query.of(StoredVectors.vector(r, dim));
            for (int s = 0; s < SLOTS; s++) {
                assertAgrees(type, query, region, misalignment + s * stride, "slot " + s);
            }
        }
    }

    /**
     * The same comparison for long enough that the JIT compiles the kernels with C2, whose
     * intrinsics are a different implementation of the Vector API than the interpreter's.
     */
    @Test
    void compiledKernelsAgreeWithTheReference() {
        Random r = new Random(2026);
        int rounds = 40_000;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(EmbeddingType.F32.stride(128) + 64, 64);
            for (int round = 0; round < rounds; round++) {
                EmbeddingType type = EmbeddingType.values()[round % EmbeddingType.values().length];
                int dim = 1 + r.nextInt(128);
                long at = r.nextInt(64);
                if (type == EmbeddingType.INT8 && r.nextBoolean()) {
                    StoredVectors.storeRawInt8(r, dim, region, at);
                } else {
                    StoredVectors.store(type, StoredVectors.vector(r, dim), region, at);
                }
                assertAgrees(type, Query.of(StoredVectors.vector(r, dim)), region, at, "round " + round);
            }
        }
    }

    @Test
    void zeroVectorsGiveZeroNormAndDot() {
        for (EmbeddingType type : EmbeddingType.values()) {
            for (float zero : new float[] {0f, -0f}) {
                int dim = 37;
                float[] v = new float[dim];
                java.util.Arrays.fill(v, zero);
                MemorySegment region = MemorySegment.ofArray(new byte[(int) type.stride(dim)]);
                StoredVectors.store(type, v, region, 0);
                long result = VectorKernels.dotAndNorm(type, Query.of(StoredVectors.vector(new Random(1), dim)), region, 0);
                assertEquals(0f, DotNorm.squaredNorm(result), type + " " + zero);
                assertEquals(0f, Math.abs(DotNorm.dot(result)), type + " " + zero);
            }
        }
    }

    static void assertAgrees(EmbeddingType type, Query query, MemorySegment region, long at, String what) {
        long simd = VectorKernels.dotAndNorm(type, query, region, at);
        long reference = ScalarKernels.dotAndNorm(type, query, region, at);
        double[] magnitude = StoredVectors.magnitudes(type, query.toArray(), region, at);
        double tolerance = StoredVectors.relativeTolerance(query.dimension());
        String where = type + " dim " + query.dimension() + " " + what;
        assertClose(DotNorm.dot(reference), DotNorm.dot(simd), tolerance * magnitude[0], "dot of " + where);
        assertClose(DotNorm.squaredNorm(reference), DotNorm.squaredNorm(simd), tolerance * magnitude[1],
                "squared norm of " + where);
        assertTrue(DotNorm.squaredNorm(simd) >= 0, "negative squared norm of " + where);
    }

    static void assertClose(float expected, float actual, double tolerance, String what) {
        // Float.MIN_VALUE: the magnitude bound of an all-zero vector is 0, and so must the error be.
        assertTrue(Math.abs((double) expected - actual) <= tolerance + Float.MIN_VALUE,
                what + ": expected " + expected + ", got " + actual + " (tolerance " + tolerance + ")");
    }
}
