package dev.tala.segment.vector;

import static dev.tala.segment.format.TbfFormat.F32;
import static dev.tala.segment.format.TbfFormat.F32_BYTES;
import static dev.tala.segment.vector.Lanes.FLOATS;
import static dev.tala.segment.vector.Lanes.L;

import dev.tala.segment.EmbeddingType;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;

/** Dot product and squared norm of a stored f32 vector (little-endian IEEE binary32), in one pass. */
final class F32Kernel {
    /** Independent accumulators per result: the four FloatVector pairs in the main loop. */
    private static final int UNROLL = 4;
    private static final int STEP_BYTES = L * F32_BYTES;

    private F32Kernel() {
    }

    static long dotAndNorm(Query query, MemorySegment x, long at) {
        if (!Lanes.SIMD) {
            return ScalarKernels.dotAndNorm(EmbeddingType.F32, query, x, at);
        }
        float[] q = query.values();
        int dim = q.length;
        FloatVector d0 = FloatVector.zero(FLOATS);
        FloatVector d1 = d0;
        FloatVector d2 = d0;
        FloatVector d3 = d0;
        FloatVector n0 = d0;
        FloatVector n1 = d0;
        FloatVector n2 = d0;
        FloatVector n3 = d0;
        int i = 0;
        // Two FMAs per register of stored values: one against the query, one against itself.
        for (int end = dim - dim % (UNROLL * L); i < end; i += UNROLL * L) {
            long o = at + (long) i * F32_BYTES;
            FloatVector x0 = FloatVector.fromMemorySegment(FLOATS, x, o, ByteOrder.LITTLE_ENDIAN);
            FloatVector x1 = FloatVector.fromMemorySegment(FLOATS, x, o + STEP_BYTES, ByteOrder.LITTLE_ENDIAN);
            FloatVector x2 = FloatVector.fromMemorySegment(FLOATS, x, o + 2 * STEP_BYTES, ByteOrder.LITTLE_ENDIAN);
            FloatVector x3 = FloatVector.fromMemorySegment(FLOATS, x, o + 3 * STEP_BYTES, ByteOrder.LITTLE_ENDIAN);
            d0 = x0.fma(FloatVector.fromArray(FLOATS, q, i), d0);
            d1 = x1.fma(FloatVector.fromArray(FLOATS, q, i + L), d1);
            d2 = x2.fma(FloatVector.fromArray(FLOATS, q, i + 2 * L), d2);
            d3 = x3.fma(FloatVector.fromArray(FLOATS, q, i + 3 * L), d3);
            n0 = x0.fma(x0, n0);
            n1 = x1.fma(x1, n1);
            n2 = x2.fma(x2, n2);
            n3 = x3.fma(x3, n3);
        }
        for (int end = dim - dim % L; i < end; i += L) {
            FloatVector x0 = FloatVector.fromMemorySegment(FLOATS, x, at + (long) i * F32_BYTES, ByteOrder.LITTLE_ENDIAN);
            d0 = x0.fma(FloatVector.fromArray(FLOATS, q, i), d0);
            n0 = x0.fma(x0, n0);
        }
        float dot = Lanes.sum(d0.add(d1).add(d2.add(d3)));
        float norm = Lanes.sum(n0.add(n1).add(n2.add(n3)));
        // The tail: fewer than L components left.
        for (; i < dim; i++) {
            float v = x.get(F32, at + (long) i * F32_BYTES);
            dot = Math.fma(q[i], v, dot);
            norm = Math.fma(v, v, norm);
        }
        return ScalarKernels.unlessOverflowed(DotNorm.pack(dot, norm), EmbeddingType.F32, query, x, at);
    }
}
