package dev.tala.segment.vector;

import static dev.tala.segment.format.TbfFormat.F32;
import static dev.tala.segment.format.TbfFormat.INT8_HEADER_BYTES;
import static dev.tala.segment.format.TbfFormat.INT8_SCALE;
import static dev.tala.segment.format.TbfFormat.INT8_ZERO_POINT;
import static dev.tala.segment.format.TbfFormat.U8;

import dev.tala.segment.EmbeddingCodec;
import dev.tala.segment.EmbeddingType;
import java.lang.foreign.MemorySegment;
import java.util.Random;

/**
 * Random vectors with the awkward values a kernel must survive (zeros, -0.0, tiny values that
 * become f16 subnormals, large ones that saturate), stored the way a segment stores them, plus
 * the error bounds the kernel results are checked against.
 */
final class StoredVectors {
    /** f32 unit roundoff. */
    static final double U = 0x1p-24;

    private StoredVectors() {
    }

    static float component(Random r, float scale) {
        return switch (r.nextInt(16)) {
            case 0 -> 0f;
            case 1 -> -0f;
            default -> (float) (r.nextGaussian() * scale);
        };
    }

    /** A vector of one of several kinds: ordinary, all +0, all -0, tiny, huge, one spike. */
    static float[] vector(Random r, int dim) {
        float[] v = new float[dim];
        int kind = r.nextInt(10);
        float scale = switch (kind) {
            case 3 -> 1e-6f; // f16 subnormals
            case 4 -> 1e5f; // beyond the f16 range: saturates
            default -> (float) Math.pow(10, r.nextInt(5) - 2);
        };
        for (int i = 0; i < dim; i++) {
            v[i] = switch (kind) {
                case 0 -> 0f;
                case 1 -> -0f;
                default -> component(r, scale);
            };
        }
        if (kind == 5) {
            v[r.nextInt(dim)] = 1000f;
        }
        return v;
    }

    /** Writes {@code v} as a {@code type} vector at {@code dst[at]}, through the segment writer's codec. */
    static void store(EmbeddingType type, float[] v, MemorySegment dst, long at) {
        EmbeddingCodec.encode(type, v, dst, at);
    }

    /**
     * Writes an int8 vector with an arbitrary scale and zero point (the writer only ever uses
     * zero_point 0, but readers must honour any), codes over the full byte range.
     */
    static void storeRawInt8(Random r, int dim, MemorySegment dst, long at) {
        float scale = r.nextInt(8) == 0 ? 0f : (float) Math.abs(r.nextGaussian() * Math.pow(10, r.nextInt(5) - 3));
        float zeroPoint = r.nextBoolean() ? 0f : (float) (r.nextGaussian() * Math.pow(10, r.nextInt(4) - 2));
        dst.set(F32, at + INT8_SCALE, scale);
        dst.set(F32, at + INT8_ZERO_POINT, zeroPoint);
        for (int i = 0; i < dim; i++) {
            dst.set(U8, at + INT8_HEADER_BYTES + i, (byte) r.nextInt(256));
        }
    }

    /**
     * Sum over i of |q_i| * m_i and of m_i^2, where m_i bounds the magnitude of the stored
     * component i and of every intermediate that computes it (for int8, |scale*q| + |zero_point|).
     * Every summation order of n terms is within n unit roundoffs of these, which is what the
     * agreement tests use.
     */
    static double[] magnitudes(EmbeddingType type, float[] query, MemorySegment x, long at) {
        int dim = query.length;
        double dot = 0;
        double norm = 0;
        if (type == EmbeddingType.INT8) {
            double scale = Math.abs(x.get(F32, at + INT8_SCALE));
            double zeroPoint = Math.abs(x.get(F32, at + INT8_ZERO_POINT));
            for (int i = 0; i < dim; i++) {
                double m = scale * Math.abs(x.get(U8, at + INT8_HEADER_BYTES + i)) + zeroPoint;
                dot += Math.abs(query[i]) * m;
                norm += m * m;
            }
        } else {
            float[] decoded = EmbeddingCodec.decode(type, x, at, dim);
            for (int i = 0; i < dim; i++) {
                double m = Math.abs(decoded[i]);
                dot += Math.abs(query[i]) * m;
                norm += m * m;
            }
        }
        return new double[] {dot, norm};
    }

    /**
     * How far a SIMD result may be from the reference, relative to {@link #magnitudes}: each lane
     * sums about dim / L terms, the lanes are combined in at most L - 1 more additions, the
     * scalar tail adds up to L - 1, and a few roundings convert and combine the parts. The
     * reference itself is within 2 roundoffs (double accumulation, one final rounding).
     */
    static double relativeTolerance(int dim) {
        int lanes = VectorKernels.lanes();
        return (dim / lanes + 2 * lanes + 8) * U;
    }
}
