package dev.tala.segment.vector;

/** What a similarity search ranks by; higher scores are more similar for both. */
public enum Metric {
    /**
     * dot / (|query| * |x|), in [-1, 1]. A zero stored or query vector scores 0 (it has no
     * direction), never NaN; so does a stored vector whose squared norm overflows f32 or
     * underflows to 0 in f32 (every component below about 2.6e-23 in magnitude). A stored vector
     * whose squared norm is subnormal in f32 (every component below about 1e-19) scores with
     * less precision, as its norm keeps only a few significant bits. The query's size does not
     * matter when it is made by {@link #query}, which scales it by a power of two first.
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

    /** The score of a stored vector from its kernel result ({@link DotNorm}) and the query. */
    public float score(long dotNorm, Query query) {
        float dot = DotNorm.dot(dotNorm);
        return this == DOT ? dot : cosine(dot, DotNorm.squaredNorm(dotNorm), query.squaredNorm());
    }

    /**
     * Cosine from the parts, in double so that the product of the two squared norms cannot
     * overflow; clamped to [-1, 1] against rounding.
     */
    static float cosine(float dot, float squaredNorm, double querySquaredNorm) {
        double denominator = Math.sqrt(squaredNorm * querySquaredNorm);
        if (!(denominator > 0) || denominator == Double.POSITIVE_INFINITY || !Float.isFinite(dot)) {
            return 0f;
        }
        return (float) Math.max(-1.0, Math.min(1.0, dot / denominator));
    }
}
