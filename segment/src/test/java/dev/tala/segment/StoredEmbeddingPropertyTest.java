package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link EmbeddingCodec#stored}: what a vector reads back as once stored in a type. Storing
 * what was read back must change nothing, bit for bit, or an intent's floats would move each
 * time it passed from the memtable to a segment, and its search scores with them.
 */
class StoredEmbeddingPropertyTest {
    /** Components of any sign and of magnitudes from subnormal to near Float.MAX_VALUE. */
    private static float[] vector(long seed, int dimension, int largestExponent, int spread) {
        Random random = new Random(seed);
        float[] v = new float[dimension];
        for (int i = 0; i < dimension; i++) {
            int exponent = largestExponent - random.nextInt(spread + 1);
            v[i] = (float) ((random.nextDouble() * 2 - 1) * Math.pow(2, exponent));
        }
        return v;
    }

    @Property(tries = 3000)
    void storingWhatWasReadBackChangesNothing(@ForAll long seed, @ForAll @IntRange(min = 1, max = 400) int dimension,
                                              @ForAll @IntRange(min = -150, max = 127) int largestExponent,
                                              @ForAll @IntRange(min = 0, max = 40) int spread) {
        float[] v = vector(seed, dimension, largestExponent, spread);
        for (EmbeddingType type : EmbeddingType.values()) {
            float[] once = EmbeddingCodec.stored(type, v);
            float[] twice = EmbeddingCodec.stored(type, once);
            assertArrayEquals(once, twice, type.label() + " of " + Arrays.toString(v));
            for (float x : once) {
                assertTrue(Float.isFinite(x), type.label() + " of " + Arrays.toString(v) + " gave " + x);
            }
        }
    }

    /**
     * With a normal scale (max|x| from about 1.5e-36 up), the scale moves by an ulp or two at
     * most, and every component still decodes within one scale of where it was, which is what
     * int8 promises.
     */
    @Property(tries = 1000)
    void int8StaysWithinOneScaleOfTheValue(@ForAll long seed, @ForAll @IntRange(min = 1, max = 400) int dimension,
                                           @ForAll @IntRange(min = -110, max = 127) int largestExponent) {
        float[] v = vector(seed, dimension, largestExponent, 10);
        MemorySegment encoded = MemorySegment.ofArray(new byte[(int) EmbeddingType.INT8.vectorBytes(dimension)]);
        EmbeddingCodec.encode(EmbeddingType.INT8, v, encoded, 0);
        float scale = encoded.get(dev.tala.segment.format.TbfFormat.F32, 0);
        float maxAbs = 0f;
        for (float x : v) {
            maxAbs = Math.max(maxAbs, Math.abs(x));
        }
        assertTrue(Math.abs(scale - maxAbs / 127) <= 3 * Math.ulp(maxAbs / 127), scale + " for max " + maxAbs);
        float[] back = EmbeddingCodec.stored(EmbeddingType.INT8, v);
        for (int i = 0; i < dimension; i++) {
            assertTrue(Math.abs((double) back[i] - v[i]) <= scale, v[i] + " reads back as " + back[i]);
        }
    }

    /** Below 127 * Float.MIN_VALUE every component is a whole number of MIN_VALUE: stored exactly. */
    @Test
    void int8OfTheTiniestVectorsIsExact() {
        float[] v = {Float.MIN_VALUE, -5 * Float.MIN_VALUE, 126 * Float.MIN_VALUE, 0f, -126 * Float.MIN_VALUE};
        assertArrayEquals(v, EmbeddingCodec.stored(EmbeddingType.INT8, v));
    }

    @Test
    void f32IsStoredAsItIs() {
        float[] v = {0.1f, -0f, Float.MIN_VALUE, Float.MAX_VALUE};
        assertEquals(v, EmbeddingCodec.stored(EmbeddingType.F32, v));
    }
}
