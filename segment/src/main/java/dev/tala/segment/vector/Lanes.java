package dev.tala.segment.vector;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector shapes of every kernel, in one place. All of them derive from the preferred float
 * species, so one register of floats is what a kernel consumes per step: 16 lanes with AVX-512,
 * 8 with AVX2, 4 with NEON or SSE.
 *
 * <p>The fields are static finals on purpose: the JIT folds them into constants, which is what
 * lets the Vector API compile to plain SIMD instructions.
 */
final class Lanes {
    private Lanes() {
    }

    /** The narrowest vector shape the API offers. */
    private static final int MIN_SHAPE_BITS = 64;

    /** One register of floats: the unit of work of every kernel. */
    static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    /** Floats per step. */
    static final int L = FLOATS.length();
    /** The same register seen as ints (bit tricks for f16/bf16, exact int8 sums). */
    static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;

    /**
     * Whether the kernels can run vectorized. The 16-bit and 8-bit loads below need shapes of
     * L*16 and max(L*8, 64) bits, and the API offers 64 to 512: so L must be a power of two from
     * 4 to 32. Otherwise (SSE-less hardware, an SVE length that is no power of two) the kernels
     * run their scalar code, which gives the same results, only slower.
     */
    static final boolean SIMD = L >= 4 && L <= 32 && Integer.bitCount(L) == 1 && INTS.length() == L;

    /** L halves (f16 or bf16 bits): half a register's width. */
    static final VectorSpecies<Short> SHORTS = SIMD ? VectorSpecies.of(short.class, shape(L * Short.SIZE)) : null;

    /**
     * The int8 load: L bytes when that is a real shape (L >= 8), else the 64-bit minimum, which
     * then holds {@link #BYTE_PARTS} registers' worth of bytes.
     */
    static final VectorSpecies<Byte> BYTES = SIMD
            ? VectorSpecies.of(byte.class, shape(Math.max(L * Byte.SIZE, MIN_SHAPE_BITS)))
            : null;
    /** Float registers per int8 load: 1, or 2 when L = 4. */
    static final int BYTE_PARTS = SIMD ? BYTES.length() / L : 1;

    /**
     * The sum of the lanes of {@code v}, always added in the same order: the upper half of the
     * lanes onto the lower half until four are left, then lanes 0 + 2 and 1 + 3, then those two
     * sums. {@code reduceLanes(ADD)} leaves the order to the implementation, and in practice the
     * interpreter adds lane by lane while C2 folds a tree, so the same query could score a vector
     * differently before and after the JIT warms up, enough to reorder tied search results
     * between two runs of one query. Lane-wise adds round the same at every tier, so a fixed
     * order gives the same bits everywhere.
     */
    static float sum(FloatVector v) {
        return sum(v, L);
    }

    /**
     * {@link #sum(FloatVector)} for a register of {@code lanes} floats (4, 8, 16 or 32), which
     * must be {@code v.length()}: a smaller count sums only the first lanes. The kernels pass
     * the constant {@link #L}, which the JIT folds; tests pass other widths, so that the
     * halvings this host never takes are still checked against the order above.
     */
    static float sum(FloatVector v, int lanes) {
        return lanes == 4 ? sumOfFour(v) : sumOfEight(halveTo256(halveTo512(v, lanes), lanes));
    }

    /*
     * Each step below is a method under the JIT's always-inline size (35 bytecode bytes): a
     * vector passed to a method that is not inlined has to be boxed on the heap, which made the
     * int8 kernel 2-4x slower in the JMH forks where a larger sum() was left out of line. In the
     * kernels the lane count is the constant L, so each halving folds to one add of two register
     * halves, or to nothing. The last eight lanes are taken out of the register and added as
     * scalars (docs/PERFORMANCE.md has the cost of this and of two slower ways to the same order).
     */

    private static FloatVector halveTo512(FloatVector v, int lanes) {
        return lanes >= 32 ? addHalves(v, FloatVector.SPECIES_512) : v;
    }

    private static FloatVector halveTo256(FloatVector v, int lanes) {
        return lanes >= 16 ? addHalves(v, FloatVector.SPECIES_256) : v;
    }

    /** Of the first eight lanes: ((0 + 4) + (2 + 6)) + ((1 + 5) + (3 + 7)). */
    private static float sumOfEight(FloatVector v) {
        return halfOfEight(v, 0) + halfOfEight(v, 1);
    }

    private static float halfOfEight(FloatVector v, int i) {
        return (v.lane(i) + v.lane(i + 4)) + (v.lane(i + 2) + v.lane(i + 6));
    }

    /** Of four lanes: (0 + 2) + (1 + 3), the same order as the last steps of {@link #sumOfEight}. */
    private static float sumOfFour(FloatVector v) {
        return (v.lane(0) + v.lane(2)) + (v.lane(1) + v.lane(3));
    }

    /** The lower half of {@code v}'s lanes plus the upper half, as a vector of the {@code half} species. */
    private static FloatVector addHalves(FloatVector v, VectorSpecies<Float> half) {
        return ((FloatVector) v.reinterpretShape(half, 0)).add(v.reinterpretShape(half, 1));
    }

    private static VectorShape shape(int bits) {
        return VectorShape.forBitSize(bits);
    }
}
