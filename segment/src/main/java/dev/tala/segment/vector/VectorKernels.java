package dev.tala.segment.vector;

import dev.tala.segment.EmbeddingType;
import java.lang.foreign.MemorySegment;

/**
 * The SIMD kernels, one per stored dtype: each reads a stored vector once and returns both its dot
 * product with the query and its squared norm (packed as by {@link DotNorm}), so that cosine needs
 * no second pass. Stored vectors are read in place, typically from a memory-mapped embeddings
 * region; any alignment works, the 64-byte alignment of TBF vectors is merely fastest.
 *
 * <p>Results agree with {@link ScalarKernels} up to float rounding: the kernels accumulate in f32
 * across lanes, the reference in double. Where a lane overflows (a part of the result is not
 * finite), the result is the reference's.
 */
public final class VectorKernels {
    private VectorKernels() {
    }

    /**
     * The dot product with {@code query} and the squared norm of the {@code type} vector of
     * {@code query.dimension()} components whose first byte is {@code vectors[offset]}.
     *
     * @throws IndexOutOfBoundsException if the vector does not lie inside {@code vectors}
     */
    public static long dotAndNorm(EmbeddingType type, Query query, MemorySegment vectors, long offset) {
        return switch (type) {
            case F32 -> F32Kernel.dotAndNorm(query, vectors, offset);
            case F16 -> F16Kernel.dotAndNorm(query, vectors, offset);
            case BF16 -> Bf16Kernel.dotAndNorm(query, vectors, offset);
            case INT8 -> Int8Kernel.dotAndNorm(query, vectors, offset);
        };
    }

    /** Whether this JVM runs the kernels with SIMD instructions rather than their scalar fallback. */
    public static boolean isVectorized() {
        return Lanes.SIMD;
    }

    /** Float lanes per SIMD step on this JVM (e.g. 16 with AVX-512, 8 with AVX2). */
    public static int lanes() {
        return Lanes.L;
    }
}
