package dev.tala.segment.vector;

import static dev.tala.segment.format.TbfFormat.F32;
import static dev.tala.segment.format.TbfFormat.F32_BYTES;
import static dev.tala.segment.format.TbfFormat.INT8_HEADER_BYTES;
import static dev.tala.segment.format.TbfFormat.INT8_SCALE;
import static dev.tala.segment.format.TbfFormat.INT8_ZERO_POINT;
import static dev.tala.segment.format.TbfFormat.U16;
import static dev.tala.segment.format.TbfFormat.U16_BYTES;
import static dev.tala.segment.format.TbfFormat.U8;

import dev.tala.segment.EmbeddingType;
import java.lang.foreign.MemorySegment;

/**
 * The plain reference for the SIMD kernels: decodes every component exactly as docs/FORMAT.md
 * defines it (f16 through {@code Float.float16ToFloat}, bf16 as the upper half of an f32, int8 as
 * {@code scale * q + zero_point} in f32 arithmetic) and accumulates in double, so its result is the
 * true value rounded once. Tests measure the SIMD kernels against it; the kernels also fall back to
 * it on hardware without usable vector shapes.
 */
public final class ScalarKernels {
    private ScalarKernels() {
    }

    /**
     * The dot product with {@code query} and the squared norm of the {@code type} vector of
     * {@code query.dimension()} components at {@code vectors[offset]}, packed as by {@link DotNorm}.
     */
    public static long dotAndNorm(EmbeddingType type, Query query, MemorySegment vectors, long offset) {
        double[] sums = sums(type, query, vectors, offset);
        return DotNorm.pack((float) sums[0], (float) sums[1]);
    }

    /**
     * The cosine of {@code query} and the {@code type} vector at {@code vectors[offset]}, from
     * sums in double that no f32 vector can overflow or underflow: for the vectors whose squared
     * norm the f32 result of {@link #dotAndNorm} cannot hold (components above about 1.8e19 or
     * all below about 1e-19), which a cosine from it would score 0.
     */
    public static float cosine(EmbeddingType type, Query query, MemorySegment vectors, long offset) {
        double[] sums = sums(type, query, vectors, offset);
        return Metric.cosine(sums[0], sums[1], query.squaredNorm());
    }

    /** The dot product with {@code query} and the squared norm, in double. */
    private static double[] sums(EmbeddingType type, Query query, MemorySegment vectors, long offset) {
        float[] q = query.values();
        double dot = 0;
        double norm = 0;
        switch (type) {
            case F32 -> {
                for (int i = 0; i < q.length; i++) {
                    double x = vectors.get(F32, offset + (long) i * F32_BYTES);
                    dot += q[i] * x;
                    norm += x * x;
                }
            }
            case F16 -> {
                for (int i = 0; i < q.length; i++) {
                    double x = Float.float16ToFloat(vectors.get(U16, offset + (long) i * U16_BYTES));
                    dot += q[i] * x;
                    norm += x * x;
                }
            }
            case BF16 -> {
                for (int i = 0; i < q.length; i++) {
                    int bits = Short.toUnsignedInt(vectors.get(U16, offset + (long) i * U16_BYTES));
                    double x = Float.intBitsToFloat(bits << Short.SIZE);
                    dot += q[i] * x;
                    norm += x * x;
                }
            }
            case INT8 -> {
                float scale = vectors.get(F32, offset + INT8_SCALE);
                float zeroPoint = vectors.get(F32, offset + INT8_ZERO_POINT);
                long components = offset + INT8_HEADER_BYTES;
                for (int i = 0; i < q.length; i++) {
                    double x = scale * vectors.get(U8, components + i) + zeroPoint;
                    dot += q[i] * x;
                    norm += x * x;
                }
            }
        }
        return new double[] {dot, norm};
    }

    /**
     * A SIMD kernel's result, or this reference's where either part of it is not finite. Each
     * lane of a kernel sums in f32, so finite inputs can overflow: one lane to +infinity and
     * another to -infinity, which add up to NaN even where the true dot product is small, and a
     * NaN score drops the vector from every search. The reference sums in double, which finite
     * f32 inputs cannot overflow, and rounds once: a true result beyond the f32 range is then an
     * infinity of the right sign. Finite results, the rule, pass through unchanged.
     */
    static long unlessOverflowed(long packed, EmbeddingType type, Query query, MemorySegment vectors, long offset) {
        if (Float.isFinite(DotNorm.dot(packed)) && Float.isFinite(DotNorm.squaredNorm(packed))) {
            return packed;
        }
        return dotAndNorm(type, query, vectors, offset);
    }
}
