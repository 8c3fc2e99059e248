package dev.tala.segment.vector;

/** What a similarity search ranks by; higher scores are more similar for both. */
public enum Metric {
    /**
     * dot / (|query| * |x|), in [-1, 1]. A zero stored or query vector scores 0 (it has no
     * direction), never NaN; so does a vector whose squared norm overflows f32, and one whose
     * squared norm underflows to 0 in f32 (only subnormal components, such as Float.MIN_VALUE;
     * for the query, whose squared norm is summed in double, when that sum rounds to 0 in f32).
     * A stored vector whose squared norm is subnormal in f32 (every component below about 1e-19
     * in magnitude) scores with less precision, as its norm keeps only a few significant bits.
     */
    COSINE,
    /** The plain dot product (for vectors normalized in advance, the same ranking as cosine). */
    DOT;

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
        if (!(denominator > 0) || denominator == Double.POSITIVE_INFINITY || !Float.isFinite(dot)
                || (float) querySquaredNorm == 0f) {
            return 0f;
        }
        return (float) Math.max(-1.0, Math.min(1.0, dot / denominator));
    }
}
