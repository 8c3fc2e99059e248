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

    private static VectorShape shape(int bits) {
        return VectorShape.forBitSize(bits);
    }
}
