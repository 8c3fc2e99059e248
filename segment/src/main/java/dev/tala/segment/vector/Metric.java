package dev.tala.segment.vector;

import dev.tala.segment.EmbeddingType;
import java.lang.foreign.MemorySegment;

/** What a similarity search ranks by; higher scores are more similar for both. */
public enum Metric {
    /**
     * dot / (|query| * |x|), in [-1, 1]. A zero stored or query vector scores 0 (it has no
     * direction), never NaN. A stored vector of any finite size scores by its direction: one
     * whose squared norm the kernels' f32 sums cannot hold (components above about 1.8e19, or all
     * below about 1e-19) is scored again from its components in double ({@link #score}). The
     * query's size does not matter when it is made by {@link #query}, which scales it by a power
     * of two first.
     */
    COSINE,
    /** The plain dot product (for vectors normalized in advance, the same ranking as cosine). */
    DOT;

    /**
     * The query to score {@code vector} by under this metric. For {@link #DOT}, the vector as it
     * is. For {@link #COSINE}, which a scaled query does not change, a copy scaled by the power
     * of two that puts its largest component in [1, 2): the kernels sum in f32, where the
     * products of a query of tiny components (Float.MIN_VALUE, or anything below about 1e-19)
     * underflow unevenly and those of huge ones overflow. Scaling by a power of two is exact, so
     * a query whose products do neither scores to the same bits either way.
     */
    public Query query(float[] vector) {
        if (this == DOT) {
            return Query.of(vector);
        }
        float largest = 0f;
        for (float v : vector) {
            largest = Math.max(largest, Math.abs(v));
        }
        if (largest == 0f || !Float.isFinite(largest)) {
            return Query.of(vector); // a zero query scores 0; a non-finite one is refused by Query
        }
        int shift = -Math.getExponent((double) largest); // double: exact for f32 subnormals too
        float[] scaled = new float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            scaled[i] = Math.scalb(vector[i], shift);
        }
        return Query.of(scaled);
    }

    /**
     * The score of the {@code type} vector at {@code vectors[offset]} from its kernel result
     * {@code dotNorm} ({@link DotNorm}) and the query. Under {@link #COSINE}, where the result's
     * squared norm is out of f32's normal range (infinite, subnormal or 0), the vector is scored
     * again in double ({@link ScalarKernels#cosine}); such vectors are rare, so the check is all
     * most pay.
     */
    public float score(long dotNorm, Query query, EmbeddingType type, MemorySegment vectors, long offset) {
        float dot = DotNorm.dot(dotNorm);
        if (this == DOT) {
            return dot;
        }
        float squaredNorm = DotNorm.squaredNorm(dotNorm);
        if (!(squaredNorm >= Float.MIN_NORMAL && squaredNorm <= Float.MAX_VALUE)) {
            return ScalarKernels.cosine(type, query, vectors, offset);
        }
        return cosine(dot, squaredNorm, query.squaredNorm());
    }

    /**
     * Cosine from the parts, in double so that the product of the two squared norms cannot
     * overflow; clamped to [-1, 1] against rounding.
     */
    static float cosine(double dot, double squaredNorm, double querySquaredNorm) {
        double denominator = Math.sqrt(squaredNorm * querySquaredNorm);
        if (!(denominator > 0) || denominator == Double.POSITIVE_INFINITY || !Double.isFinite(dot)) {
            return 0f;
        }
        return (float) Math.max(-1.0, Math.min(1.0, dot / denominator));
    }
}
