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
 * Dot product and squared norm of a stored bf16 vector, in one pass. A bf16 is the upper half of
 * an f32, so decoding is a widening to int lanes and a 16-bit shift: no rounding, no special cases.
 */
final class Bf16Kernel {
    private static final int UNROLL = 2;
    private static final int STEP_BYTES = L * U16_BYTES;

    private Bf16Kernel() {
    }

    static long dotAndNorm(Query query, MemorySegment x, long at) {
        if (!Lanes.SIMD) {
            return ScalarKernels.dotAndNorm(EmbeddingType.BF16, query, x, at);
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
            float v = Float.intBitsToFloat(x.get(U16, at + (long) i * U16_BYTES) << Short.SIZE);
            dot = Math.fma(q[i], v, dot);
            norm = Math.fma(v, v, norm);
        }
        return ScalarKernels.unlessOverflowed(DotNorm.pack(dot, norm), EmbeddingType.BF16, query, x, at);
    }

    /** L bf16 values at {@code x[o]}: widened (the sign extension is shifted out again), then shifted up. */
    private static FloatVector load(MemorySegment x, long o) {
        ShortVector halves = ShortVector.fromMemorySegment(SHORTS, x, o, ByteOrder.LITTLE_ENDIAN);
        IntVector widened = (IntVector) halves.convertShape(VectorOperators.S2I, INTS, 0);
        return widened.lanewise(VectorOperators.LSHL, Short.SIZE).reinterpretAsFloats();
    }
}
