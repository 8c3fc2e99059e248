package dev.tala.engine;

import dev.tala.core.model.Intent;
import dev.tala.segment.vector.Metric;

/** The reference score the query tests hold the engine's kernels to: summed in double, in order. */
final class BruteForceScores {
    private BruteForceScores() {
    }

    /**
     * {@code metric}'s score of {@code b} against {@code a}. For cosine, a zero vector has no
     * direction and scores 0. A vector of only subnormal components scored 0 too before (its f32
     * squared norm underflows); {@link Metric#COSINE} now scores such a vector, and one whose
     * squared norm overflows f32, by its direction, as this does.
     */
    static double score(Metric metric, float[] a, Intent b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b.embedding(i);
            na += (double) a[i] * a[i];
            nb += (double) b.embedding(i) * b.embedding(i);
        }
        if (metric == Metric.DOT) {
            return dot;
        }
        return na == 0 || nb == 0 ? 0 : Math.max(-1, Math.min(1, dot / Math.sqrt(na * nb)));
    }
}
