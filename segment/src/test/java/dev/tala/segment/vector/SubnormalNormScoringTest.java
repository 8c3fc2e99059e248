package dev.tala.segment.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.segment.EmbeddingType;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * From a mutation audit: a stored vector whose f32 squared norm is subnormal (components about
 * 1e-22) keeps only a few bits of it, and is scored again in double, so its cosine is exact, not
 * off by a percent. The same-direction case cannot show this (an underestimated norm clamps to 1).
 */
class SubnormalNormScoringTest {
    @Test
    void aVectorWithASubnormalSquaredNormScoresItsExactCosine() {
        int dim = 4;
        float[] query = {1f, 0f, 0f, 0f};
        for (float size : new float[] {1e-22f, 3e-22f, 2e-21f}) {
            float[] stored = {size, size, 0f, 0f};
            long stride = EmbeddingType.F32.stride(dim);
            MemorySegment region = MemorySegment.ofArray(new byte[(int) stride]);
            StoredVectors.store(EmbeddingType.F32, stored, region, 0);
            float[] out = new float[1];
            VectorScoring.score(region, stride, 0, 1, EmbeddingType.F32, dim, Metric.COSINE.query(query), Metric.COSINE, out);
            assertEquals((float) Math.sqrt(0.5), out[0], 1e-5f, "size " + size);
        }
    }
}
