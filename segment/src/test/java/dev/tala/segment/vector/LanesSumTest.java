package dev.tala.segment.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@code Lanes.sum} at 4, 8 and 16 floats per register, not only this host's width: a machine
 * with AVX-512 takes the 16-lane halving that an AVX2 machine never does. Each sum must have
 * exactly the bits of the documented order, written out here as plain scalar adds. Widths this
 * host's JIT does not compile run through the Vector API's Java fallback, which checks the
 * order, not the AVX-512 code (KernelDeterminismTest covers that on such a host). 32 lanes
 * need a vector wider than the API offers on x86 and are not tested.
 */
class LanesSumTest {
    private static final List<VectorSpecies<Float>> WIDTHS =
            List.of(FloatVector.SPECIES_128, FloatVector.SPECIES_256, FloatVector.SPECIES_512);

    @Property(tries = 300)
    void sumsInTheDocumentedOrderAtEveryWidth(@ForAll @IntRange(min = 0, max = 2) int width, @ForAll long seed) {
        VectorSpecies<Float> species = WIDTHS.get(width);
        float[] lanes = lanes(new Random(seed), species.length());
        FloatVector v = FloatVector.fromArray(species, lanes, 0);
        assertEquals(Float.floatToRawIntBits(documentedOrder(lanes)), Float.floatToRawIntBits(Lanes.sum(v, species.length())),
                () -> species + " lanes " + Arrays.toString(lanes));
    }

    /**
     * The comparison above can fail: over the same kind of inputs, adding the lanes one by one
     * (the interpreter's reduceLanes) gives other bits for many of them.
     */
    @Test
    void theOrderDecidesTheBits() {
        Random r = new Random(7);
        for (VectorSpecies<Float> w : WIDTHS) {
            int differ = 0;
            for (int i = 0; i < 200; i++) {
                float[] lanes = lanes(r, w.length());
                float oneByOne = 0;
                for (float f : lanes) {
                    oneByOne += f;
                }
                differ += Float.compare(oneByOne, documentedOrder(lanes)) != 0 ? 1 : 0;
            }
            assertTrue(differ > 20, w + ": only " + differ + " of 200 sums depend on the order");
        }
    }

    /** Floats of mixed signs and magnitudes, so that rounding depends on the order of the adds. */
    private static float[] lanes(Random r, int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) (r.nextGaussian() * Math.pow(10, r.nextInt(7) - 3));
        }
        return a;
    }

    /** Upper half onto lower half until four lanes are left, then (0 + 2) + (1 + 3). */
    private static float documentedOrder(float[] lanes) {
        float[] a = lanes.clone();
        for (int n = a.length; n > 4; n /= 2) {
            for (int i = 0; i < n / 2; i++) {
                a[i] = a[i] + a[i + n / 2];
            }
        }
        return (a[0] + a[2]) + (a[1] + a[3]);
    }
}
