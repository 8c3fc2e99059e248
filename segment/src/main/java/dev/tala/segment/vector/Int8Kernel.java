package dev.tala.segment.vector;

import static dev.tala.segment.format.TbfFormat.F32;
import static dev.tala.segment.format.TbfFormat.INT8_HEADER_BYTES;
import static dev.tala.segment.format.TbfFormat.INT8_SCALE;
import static dev.tala.segment.format.TbfFormat.INT8_ZERO_POINT;
import static dev.tala.segment.format.TbfFormat.U8;
import static dev.tala.segment.vector.Lanes.BYTES;
import static dev.tala.segment.vector.Lanes.BYTE_PARTS;
import static dev.tala.segment.vector.Lanes.FLOATS;
import static dev.tala.segment.vector.Lanes.INTS;
import static dev.tala.segment.vector.Lanes.L;

import dev.tala.segment.EmbeddingType;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;

/**
 * Dot product and squared norm of a stored int8 vector (f32 scale, f32 zero_point, then dim
 * signed bytes q_i encoding x_i = scale * q_i + zero_point), in one pass over the bytes. Rather
 * than decoding each x_i it uses
 *
 * <pre>
 *   dot(query, x) = scale * sum(query_i * q_i) + zero_point * sum(query_i)
 *   |x|^2         = scale^2 * sum(q_i^2) + 2 * scale * zero_point * sum(q_i) + dim * zero_point^2
 * </pre>
 *
 * where sum(query_i) comes precomputed with the {@link Query}. The two sums over q_i are exact
 * int arithmetic (at most 65,536 * 128^2 = 2^30), and the terms are combined in double, so the
 * norm does not suffer when zero_point and scale nearly cancel.
 */
final class Int8Kernel {
    private static final int UNROLL = 2;

    private Int8Kernel() {
    }

    static long dotAndNorm(Query query, MemorySegment x, long at) {
        if (!Lanes.SIMD) {
            return ScalarKernels.dotAndNorm(EmbeddingType.INT8, query, x, at);
        }
        float[] q = query.values();
        int dim = q.length;
        float scale = x.get(F32, at + INT8_SCALE);
        float zeroPoint = x.get(F32, at + INT8_ZERO_POINT);
        long codes = at + INT8_HEADER_BYTES;
        // Two sets of accumulators, so that consecutive FMAs do not wait for each other.
        FloatVector products0 = FloatVector.zero(FLOATS);
        FloatVector products1 = products0;
        IntVector sums0 = IntVector.zero(INTS);
        IntVector sums1 = sums0;
        IntVector squares0 = sums0;
        IntVector squares1 = sums0;
        int step = BYTES.length();
        int i = 0;
        for (int end = dim - dim % (UNROLL * step); i < end; i += UNROLL * step) {
            ByteVector b0 = ByteVector.fromMemorySegment(BYTES, x, codes + i, ByteOrder.LITTLE_ENDIAN);
            ByteVector b1 = ByteVector.fromMemorySegment(BYTES, x, codes + i + step, ByteOrder.LITTLE_ENDIAN);
            // A constant trip count (1 unless L = 4), unrolled by the JIT.
            for (int part = 0; part < BYTE_PARTS; part++) {
                IntVector v0 = widen(b0, part);
                IntVector v1 = widen(b1, part);
                sums0 = sums0.add(v0);
                sums1 = sums1.add(v1);
                squares0 = v0.mul(v0).add(squares0);
                squares1 = v1.mul(v1).add(squares1);
                products0 = toFloats(v0).fma(FloatVector.fromArray(FLOATS, q, i + part * L), products0);
                products1 = toFloats(v1).fma(FloatVector.fromArray(FLOATS, q, i + step + part * L), products1);
            }
        }
        for (int end = dim - dim % step; i < end; i += step) {
            ByteVector b0 = ByteVector.fromMemorySegment(BYTES, x, codes + i, ByteOrder.LITTLE_ENDIAN);
            for (int part = 0; part < BYTE_PARTS; part++) {
                IntVector v0 = widen(b0, part);
                sums0 = sums0.add(v0);
                squares0 = v0.mul(v0).add(squares0);
                products0 = toFloats(v0).fma(FloatVector.fromArray(FLOATS, q, i + part * L), products0);
            }
        }
        float weighted = Lanes.sum(products0.add(products1));
        int sum = sums0.add(sums1).reduceLanes(VectorOperators.ADD);
        int sumOfSquares = squares0.add(squares1).reduceLanes(VectorOperators.ADD);
        for (; i < dim; i++) {
            int v = x.get(U8, codes + i);
            weighted = Math.fma(q[i], v, weighted);
            sum += v;
            sumOfSquares += v * v;
        }
        double s = scale;
        double z = zeroPoint;
        double dot = s * weighted + z * query.sum();
        double norm = s * s * sumOfSquares + 2 * s * z * sum + dim * z * z;
        // The expansion of a sum of squares can round a hair below zero when the terms cancel.
        return ScalarKernels.unlessOverflowed(DotNorm.pack((float) dot, (float) Math.max(0, norm)), EmbeddingType.INT8,
                query, x, at);
    }

    /** Register {@code part} of the sign-extended codes. */
    private static IntVector widen(ByteVector codes, int part) {
        return (IntVector) codes.convertShape(VectorOperators.B2I, INTS, part);
    }

    private static FloatVector toFloats(IntVector v) {
        return (FloatVector) v.convert(VectorOperators.I2F, 0);
    }
}
