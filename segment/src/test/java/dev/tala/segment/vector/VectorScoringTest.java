package dev.tala.segment.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentWriteOptions;
import dev.tala.segment.SegmentWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.junit.jupiter.api.Test;

/** The bulk API over the embeddings region of real segments written by SegmentWriter. */
class VectorScoringTest {
    private static final int K = 5;
    private static final long KEY_BASE = 1_000;
    private static Path dir;

    @BeforeContainer
    static void createDirectory() throws IOException {
        dir = Files.createTempDirectory("tbf-vector-scoring");
    }

    @AfterContainer
    static void deleteDirectory() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    /** Rows sorted by id, some tombstones, embeddings from {@link StoredVectors#vector} (zeros included). */
    private static List<IntentVersion> versions(int rows, int dim, long seed) {
        RandomIntents intents = new RandomIntents(seed, dim);
        Random r = intents.random();
        TreeMap<IntentId, IntentVersion> sorted = new TreeMap<>();
        long sequence = 1;
        while (sorted.size() < rows) {
            Intent intent = intents.next().toBuilder().edges(List.of()).embedding(StoredVectors.vector(r, dim)).build();
            IntentVersion v = r.nextInt(7) == 0 ? IntentVersion.tombstone(intent.id(), sequence)
                    : IntentVersion.put(sequence, intent);
            sorted.put(intent.id(), v);
            sequence++;
        }
        return new ArrayList<>(sorted.values());
    }

    private static SegmentReader write(String name, List<IntentVersion> versions, int dim, EmbeddingType type) {
        Path file = dir.resolve(name);
        try {
            Files.deleteIfExists(file);
            new SegmentWriter(LocalFileLayer.INSTANCE)
                    .write(file, SegmentWriteOptions.of(1, 1, dim, type).withSync(false), versions);
            return SegmentReader.open(LocalFileLayer.INSTANCE, file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Property(tries = 30)
    void scoresAndTopKOfASegmentMatchTheReference(@ForAll EmbeddingType type,
            @ForAll @IntRange(min = 1, max = 1000) int dim, @ForAll @IntRange(min = 1, max = 60) int rows,
            @ForAll long seed) {
        try (SegmentReader reader = write("scoring.tbf", versions(rows, dim, seed), dim, type)) {
            MemorySegment region = reader.embeddingRegion();
            long stride = reader.stride();
            int slots = reader.putCount();
            Query query = Query.of(StoredVectors.vector(new Random(seed + 1), dim));
            for (int slot = 0; slot < slots; slot++) {
                KernelAgreementTest.assertAgrees(type, query, region, slot * stride, "segment slot " + slot);
            }
            for (Metric metric : Metric.values()) {
                float[] scores = new float[slots];
                VectorScoring.score(region, stride, 0, slots, type, dim, query, metric, scores);
                for (int slot = 0; slot < slots; slot++) {
                    assertScore(type, query, metric, region, slot * stride, scores[slot], "slot " + slot);
                }
                TopK top = new TopK(K);
                VectorScoring.topK(region, stride, 0, slots, type, dim, query, metric, KEY_BASE, top);
                assertEquals(sortedReference(scores, K), top.sorted(), metric + " top " + K);
            }
            // A sub-range writes from out[0] and reads only its own slots.
            if (slots > 2) {
                float[] all = new float[slots];
                VectorScoring.score(region, stride, 0, slots, type, dim, query, Metric.COSINE, all);
                float[] middle = new float[slots - 2];
                VectorScoring.score(region, stride, 1, slots - 1, type, dim, query, Metric.COSINE, middle);
                assertEquals(Arrays.toString(Arrays.copyOfRange(all, 1, slots - 1)), Arrays.toString(middle));
            }
        }
    }

    /** A score against the scalar reference; cosine's tolerance follows from those of dot and norm. */
    private static void assertScore(EmbeddingType type, Query query, Metric metric, MemorySegment region, long at,
            float actual, String what) {
        assertTrue(!Float.isNaN(actual), what + " scored NaN");
        long reference = ScalarKernels.dotAndNorm(type, query, region, at);
        double[] magnitude = StoredVectors.magnitudes(type, query.toArray(), region, at);
        double tolerance = StoredVectors.relativeTolerance(query.dimension());
        float dot = DotNorm.dot(reference);
        if (metric == Metric.DOT) {
            KernelAgreementTest.assertClose(dot, actual, tolerance * magnitude[0], what);
            return;
        }
        double normSq = DotNorm.squaredNorm(reference);
        if (normSq == 0 || query.squaredNorm() == 0) {
            assertEquals(0f, actual, what + ": a zero vector has cosine 0");
            return;
        }
        double norms = Math.sqrt(normSq * query.squaredNorm());
        double expected = Math.max(-1, Math.min(1, dot / norms));
        double bound = tolerance * (magnitude[0] / norms + magnitude[1] / normSq) + 4 * StoredVectors.U;
        KernelAgreementTest.assertClose((float) expected, actual, bound, what + " cosine");
    }

    private static List<Hit> sortedReference(float[] scores, int k) {
        List<Hit> all = new ArrayList<>();
        for (int slot = 0; slot < scores.length; slot++) {
            all.add(new Hit(scores[slot], KEY_BASE + slot));
        }
        all.sort(TopKPropertyTest.REFERENCE_ORDER);
        return all.subList(0, Math.min(k, all.size()));
    }

    @Test
    void zeroVectorsAndZeroQueriesScoreZeroForCosine() {
        int dim = 20;
        for (EmbeddingType type : EmbeddingType.values()) {
            long stride = type.stride(dim);
            MemorySegment region = MemorySegment.ofArray(new byte[(int) (3 * stride)]);
            float[] negativeZeros = new float[dim];
            Arrays.fill(negativeZeros, -0f);
            float[] ones = new float[dim];
            Arrays.fill(ones, 1f);
            StoredVectors.store(type, new float[dim], region, 0);
            StoredVectors.store(type, negativeZeros, region, stride);
            StoredVectors.store(type, ones, region, 2 * stride);
            float[] out = new float[3];
            VectorScoring.score(region, stride, 0, 3, type, dim, Query.of(ones), Metric.COSINE, out);
            assertEquals(0f, out[0], type + " zero vector");
            assertEquals(0f, out[1], type + " -0.0 vector");
            assertEquals(1f, out[2], 1e-6f, type + " identical direction");
            VectorScoring.score(region, stride, 0, 3, type, dim, Query.of(new float[dim]), Metric.COSINE, out);
            assertEquals("[0.0, 0.0, 0.0]", Arrays.toString(out), type + " zero query");
        }
    }

    /**
     * Finite vectors whose products overflow f32 in some lanes: alternating +-1e30 against a
     * query of 1e30 has a true dot product of 0, but the kernels' lanes summed to +infinity and
     * -infinity, and their NaN dropped the vector from every DOT search. Each dtype that can hold
     * 1e30 must score it as the double-precision reference does, and a true dot product beyond
     * the f32 range must score as an infinity that still ranks.
     */
    @Test
    void lanesThatOverflowAreScoredInDouble() {
        int dim = 64;
        float[] query = new float[dim];
        Arrays.fill(query, 1e30f);
        float[] alternating = new float[dim];
        float[] large = new float[dim];
        for (int i = 0; i < dim; i++) {
            alternating[i] = i % 2 == 0 ? 1e30f : -1e30f;
            large[i] = 1e30f;
        }
        for (EmbeddingType type : List.of(EmbeddingType.F32, EmbeddingType.BF16, EmbeddingType.INT8)) {
            long stride = type.stride(dim);
            MemorySegment region = MemorySegment.ofArray(new byte[(int) (2 * stride)]);
            StoredVectors.store(type, alternating, region, 0);
            StoredVectors.store(type, large, region, stride);
            Query q = Query.of(query);
            long reference = ScalarKernels.dotAndNorm(type, q, region, 0);
            assertEquals(DotNorm.dot(reference), DotNorm.dot(VectorKernels.dotAndNorm(type, q, region, 0)), type + " dot");
            float[] out = new float[2];
            VectorScoring.score(region, stride, 0, 2, type, dim, q, Metric.DOT, out);
            assertTrue(Float.isFinite(out[0]), type + ": " + out[0]);
            assertEquals(Float.POSITIVE_INFINITY, out[1], type + ": a dot product beyond f32 is +infinity");
            TopK top = new TopK(5);
            VectorScoring.topK(region, stride, 0, 2, type, dim, q, Metric.DOT, KEY_BASE, top);
            assertEquals(2, top.size(), type + ": both vectors ranked");
        }
    }

    /**
     * Cosine does not change with the query's size. A query of only subnormal components scored
     * 1.0, 1.0 and 0.0 against vectors whose cosines are 1.0, 0.6 and 0.3 (its dot products
     * underflowed unevenly in f32), and a rule that scored such queries 0 also zeroed ordinary
     * small ones (1e-23). Made by Metric.COSINE.query, tiny and huge queries score as the same
     * direction at unit size does: to the bit when they differ from it by a power of two.
     */
    @Test
    void aCosineQueryScoresTheSameWhateverItsSize() {
        int dim = 4;
        float[][] stored = {{1f, 0f, 0f, 0f}, {0.6f, 0.8f, 0f, 0f}, {0.3f, 0f, 0.9539392f, 0f}};
        for (EmbeddingType type : EmbeddingType.values()) {
            long stride = type.stride(dim);
            MemorySegment region = MemorySegment.ofArray(new byte[(int) (stored.length * stride)]);
            for (int i = 0; i < stored.length; i++) {
                StoredVectors.store(type, stored[i], region, i * stride);
            }
            float[] unit = scores(region, stride, type, dim, new float[] {1f, 0f, 0f, 0f});
            assertEquals(1f, unit[0], 1e-6f, type.label());
            for (float size : new float[] {Float.MIN_VALUE, 0x1p-100f, 0x1p100f, Float.MIN_NORMAL}) {
                assertEquals(Arrays.toString(unit), Arrays.toString(scores(region, stride, type, dim,
                        new float[] {size, 0f, 0f, 0f})), type.label() + " query of " + size);
            }
            float[] small = scores(region, stride, type, dim, new float[] {1e-23f, 0f, 0f, 0f});
            float[] huge = scores(region, stride, type, dim, new float[] {Float.MAX_VALUE, 0f, 0f, 0f});
            for (int i = 0; i < stored.length; i++) {
                assertEquals(unit[i], small[i], 1e-6f, type.label() + " query of 1e-23, vector " + i);
                assertEquals(unit[i], huge[i], 1e-6f, type.label() + " query of Float.MAX_VALUE, vector " + i);
            }
        }
    }

    /**
     * A stored vector scores by its direction whatever its size. Components of 1e20 overflow the
     * f32 squared norm and components of 1e-25 underflow it to 0, and both scored 0 against
     * every query, their own direction included: stored, but never found (from an audit). Now
     * they score as the same direction at unit size, from the memtable's f32 and from every
     * segment type that can hold them, and rank first.
     */
    @Test
    void aStoredVectorOfAnySizeScoresByItsDirection() {
        int dim = 4;
        float[] direction = {1f, 2f, 0f, 1f};
        float[] other = {0f, 0f, 1f, 0f};
        for (float size : new float[] {1e20f, 1e30f, 1e-25f, 1e-40f, 1f}) {
            float[] stored = new float[dim];
            for (int i = 0; i < dim; i++) {
                stored[i] = direction[i] * size;
            }
            for (EmbeddingType type : List.of(EmbeddingType.F32, EmbeddingType.BF16, EmbeddingType.INT8)) {
                long stride = type.stride(dim);
                MemorySegment region = MemorySegment.ofArray(new byte[(int) (2 * stride)]);
                StoredVectors.store(type, other, region, 0);
                StoredVectors.store(type, stored, region, stride);
                float[] out = scores(region, stride, type, dim, direction);
                assertEquals(0f, out[0], type.label() + " orthogonal");
                assertEquals(1f, out[1], 1e-3f, type.label() + " the same direction at size " + size);
                TopK top = new TopK(1);
                VectorScoring.topK(region, stride, 0, 2, type, dim, Metric.COSINE.query(direction), Metric.COSINE,
                        KEY_BASE, top);
                assertEquals(KEY_BASE + 1, top.sorted().getFirst().key(), type.label() + " at size " + size);
            }
        }
    }

    private static float[] scores(MemorySegment region, long stride, EmbeddingType type, int dim, float[] query) {
        float[] out = new float[(int) (region.byteSize() / stride)];
        VectorScoring.score(region, stride, 0, out.length, type, dim, Metric.COSINE.query(query), Metric.COSINE, out);
        return out;
    }

    @Test
    void int8ZeroPointThatCancelsTheCodesIsAZeroVector() {
        int dim = 33;
        MemorySegment region = MemorySegment.ofArray(new byte[(int) EmbeddingType.INT8.stride(dim)]);
        region.set(dev.tala.segment.format.TbfFormat.F32, 0, 0.5f);
        region.set(dev.tala.segment.format.TbfFormat.F32, 4, -2.5f);
        for (int i = 0; i < dim; i++) {
            region.set(dev.tala.segment.format.TbfFormat.U8, 8 + i, (byte) 5); // 0.5 * 5 - 2.5 = 0
        }
        float[] out = new float[1];
        float[] q = new float[dim];
        Arrays.fill(q, 1f);
        VectorScoring.score(region, region.byteSize(), 0, 1, EmbeddingType.INT8, dim, Query.of(q), Metric.COSINE, out);
        assertEquals(0f, out[0]);
        long result = VectorKernels.dotAndNorm(EmbeddingType.INT8, Query.of(q), region, 0);
        assertEquals(0f, DotNorm.squaredNorm(result));
        assertEquals(0f, DotNorm.dot(result));
    }

    @Test
    void badArgumentsAreRefusedBeforeAnyRead() {
        int dim = 8;
        long stride = EmbeddingType.F32.stride(dim);
        MemorySegment region = MemorySegment.ofArray(new byte[(int) (4 * stride)]);
        Query query = Query.of(new float[dim]);
        float[] out = new float[4];
        assertThrows(IllegalArgumentException.class,
                () -> VectorScoring.score(region, stride, 0, 4, EmbeddingType.F32, dim + 1, query, Metric.DOT, out));
        assertThrows(IllegalArgumentException.class,
                () -> VectorScoring.score(region, 16, 0, 4, EmbeddingType.F32, dim, query, Metric.DOT, out));
        assertThrows(IndexOutOfBoundsException.class,
                () -> VectorScoring.score(region, stride, 0, 5, EmbeddingType.F32, dim, query, Metric.DOT, new float[5]));
        assertThrows(IndexOutOfBoundsException.class,
                () -> VectorScoring.score(region, stride, 3, 2, EmbeddingType.F32, dim, query, Metric.DOT, out));
        assertThrows(IllegalArgumentException.class,
                () -> VectorScoring.score(region, stride, 0, 4, EmbeddingType.F32, dim, query, Metric.DOT, new float[3]));
        assertThrows(IllegalArgumentException.class, () -> Query.of(new float[] {1f, Float.NaN}));
        assertThrows(IllegalArgumentException.class, () -> Query.of(new float[0]));
    }
}
