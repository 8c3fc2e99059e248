package dev.tala.segment.vector;

import static dev.tala.segment.format.TbfFormat.U16;
import static dev.tala.segment.format.TbfFormat.U16_BYTES;
import static dev.tala.segment.vector.Lanes.FLOATS;
import static dev.tala.segment.vector.Lanes.INTS;
import static dev.tala.segment.vector.Lanes.L;
import static dev.tala.segment.vector.Lanes.SHORTS;

import dev.tala.segment.EmbeddingType;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;

/**
 * Dot product and squared norm of a stored f16 vector (IEEE binary16), in one pass. The JDK 25
 * Vector API has no half-precision conversion, so the halves are widened to int lanes and turned
 * into floats with integer and float arithmetic that reproduces {@code Float.float16ToFloat}
 * bit for bit for every pattern but NaNs, which decode to NaNs (with their payload, which the
 * JDK itself keeps or quiets depending on whether its F16C intrinsic runs).
 */
final class F16Kernel {
    private static final int UNROLL = 2;
    private static final int STEP_BYTES = L * U16_BYTES;

    /** Exponent and mantissa of a half; its exponent field alone. */
    private static final int MAGNITUDE = 0x7FFF;
    private static final int EXPONENT = 0x7C00;
    /** Moves the 10 mantissa bits to the top of the f32's 23 and the 5 exponent bits into its 8. */
    private static final int WIDEN_SHIFT = 23 - 10;
    /**
     * 2^(127 - 15): the difference of the exponent biases. After the shift, multiplying by it
     * re-biases a normal half exactly, and turns a subnormal half (read as an f32 subnormal) into
     * the normal f32 of the same value.
     */
    private static final float REBIAS = 0x1p112f;
    /** The f32 exponent field of infinity and NaN. */
    private static final int F32_EXPONENT = 0x7F80_0000;
    /** After sign extension to an int, bit 31 is the half's sign. */
    private static final int SIGN = Integer.MIN_VALUE;

    private F16Kernel() {
    }

    static long dotAndNorm(Query query, MemorySegment x, long at) {
        if (!Lanes.SIMD) {
            return ScalarKernels.dotAndNorm(EmbeddingType.F16, query, x, at);
        }
        float[] q = query.values();
        int dim = q.length;
        FloatVector d0 = FloatVector.zero(FLOATS);
        FloatVector d1 = d0;
        FloatVector n0 = d0;
        FloatVector n1 = d0;
        int i = 0;
        for (int end = dim - dim % (UNROLL * L); i < end; i += UNROLL * L) {
            long o = at + (long) i * U16_BYTES;
            FloatVector x0 = load(x, o);
            FloatVector x1 = load(x, o + STEP_BYTES);
            d0 = x0.fma(FloatVector.fromArray(FLOATS, q, i), d0);
            d1 = x1.fma(FloatVector.fromArray(FLOATS, q, i + L), d1);
            n0 = x0.fma(x0, n0);
            n1 = x1.fma(x1, n1);
        }
        for (int end = dim - dim % L; i < end; i += L) {
            FloatVector x0 = load(x, at + (long) i * U16_BYTES);
            d0 = x0.fma(FloatVector.fromArray(FLOATS, q, i), d0);
            n0 = x0.fma(x0, n0);
        }
        float dot = Lanes.sum(d0.add(d1));
        float norm = Lanes.sum(n0.add(n1));
        for (; i < dim; i++) {
            float v = Float.float16ToFloat(x.get(U16, at + (long) i * U16_BYTES));
            dot = Math.fma(q[i], v, dot);
            norm = Math.fma(v, v, norm);
        }
        return ScalarKernels.unlessOverflowed(DotNorm.pack(dot, norm), EmbeddingType.F16, query, x, at);
    }

    /** L halves at {@code x[o]}, decoded. */
    private static FloatVector load(MemorySegment x, long o) {
        ShortVector halves = ShortVector.fromMemorySegment(SHORTS, x, o, ByteOrder.LITTLE_ENDIAN);
        return decode((IntVector) halves.convertShape(VectorOperators.S2I, INTS, 0));
    }

    /**
     * The floats that sign-extended half bits {@code h} encode: {@code Float.float16ToFloat} lane
     * by lane (zeros keep their sign, subnormals are exact, infinities stay infinite, NaNs stay
     * NaNs).
     */
    static FloatVector decode(IntVector h) {
        IntVector magnitude = h.and(MAGNITUDE);
        IntVector widened = magnitude.lanewise(VectorOperators.LSHL, WIDEN_SHIFT);
        IntVector finite = widened.reinterpretAsFloats().mul(REBIAS).reinterpretAsInts();
        IntVector special = widened.or(F32_EXPONENT);
        IntVector bits = finite.blend(special, magnitude.compare(VectorOperators.GE, EXPONENT));
        return bits.or(h.and(SIGN)).reinterpretAsFloats();
    }
}
