package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.BF16_EXPONENT_BITS;
import static dev.tala.segment.format.TbfFormat.BF16_MAX_FINITE_BITS;
import static dev.tala.segment.format.TbfFormat.F16_MAX_FINITE;
import static dev.tala.segment.format.TbfFormat.F32;
import static dev.tala.segment.format.TbfFormat.INT8_HEADER_BYTES;
import static dev.tala.segment.format.TbfFormat.INT8_MAX;
import static dev.tala.segment.format.TbfFormat.INT8_SCALE;
import static dev.tala.segment.format.TbfFormat.INT8_ZERO_POINT;
import static dev.tala.segment.format.TbfFormat.U16;
import static dev.tala.segment.format.TbfFormat.U8;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Converts embedding vectors between float values and their stored encodings. Lossy encodings
 * never produce a non-finite value from a finite one: f16 saturates at +-65504 and bf16 at its
 * largest finite value, so a segment always decodes to storable intents.
 */
public final class EmbeddingCodec {
    private EmbeddingCodec() {
    }

    /**
     * Writes {@code dimension} floats from {@code source} (native-order floats, e.g.
     * {@code Intent.embeddingView()}) as one encoded vector at {@code dst[at]}. Bytes after the
     * vector (stride padding) are left untouched; the caller zeroes them.
     */
    public static void encode(EmbeddingType type, MemorySegment source, int dimension, MemorySegment dst, long at) {
        switch (type) {
            case F32 -> MemorySegment.copy(source, ValueLayout.JAVA_FLOAT, 0, dst, F32, at, dimension);
            case F16 -> {
                for (int i = 0; i < dimension; i++) {
                    dst.set(U16, at + 2L * i, toF16(source.getAtIndex(ValueLayout.JAVA_FLOAT, i)));
                }
            }
            case BF16 -> {
                for (int i = 0; i < dimension; i++) {
                    dst.set(U16, at + 2L * i, toBf16(source.getAtIndex(ValueLayout.JAVA_FLOAT, i)));
                }
            }
            case INT8 -> encodeInt8(source, dimension, dst, at);
        }
    }

    public static void encode(EmbeddingType type, float[] values, MemorySegment dst, long at) {
        encode(type, MemorySegment.ofArray(values), values.length, dst, at);
    }

    /** Decodes the vector at {@code src[at]} into {@code out[0, dimension)}. */
    public static void decode(EmbeddingType type, MemorySegment src, long at, int dimension, float[] out) {
        switch (type) {
            case F32 -> MemorySegment.copy(src, F32, at, out, 0, dimension);
            case F16 -> {
                for (int i = 0; i < dimension; i++) {
                    out[i] = Float.float16ToFloat(src.get(U16, at + 2L * i));
                }
            }
            case BF16 -> {
                for (int i = 0; i < dimension; i++) {
                    out[i] = fromBf16(src.get(U16, at + 2L * i));
                }
            }
            case INT8 -> {
                float scale = src.get(F32, at + INT8_SCALE);
                float zeroPoint = src.get(F32, at + INT8_ZERO_POINT);
                long q = at + INT8_HEADER_BYTES;
                for (int i = 0; i < dimension; i++) {
                    out[i] = scale * src.get(U8, q + i) + zeroPoint;
                }
            }
        }
    }

    public static float[] decode(EmbeddingType type, MemorySegment src, long at, int dimension) {
        float[] out = new float[dimension];
        decode(type, src, at, dimension, out);
        return out;
    }

    static short toF16(float value) {
        float clamped = Math.max(-F16_MAX_FINITE, Math.min(F16_MAX_FINITE, value));
        return Float.floatToFloat16(clamped);
    }

    /** The upper half of the f32 bits, rounded to nearest with ties to even. */
    static short toBf16(float value) {
        int bits = Float.floatToRawIntBits(value);
        int rounded = (bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16;
        if ((rounded & BF16_EXPONENT_BITS) == BF16_EXPONENT_BITS && Float.isFinite(value)) {
            // Rounding carried a finite value into the infinity exponent: saturate instead.
            rounded = (rounded & 0x8000) | BF16_MAX_FINITE_BITS;
        }
        return (short) rounded;
    }

    static float fromBf16(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    /**
     * Symmetric quantization: zero_point 0, scale = max|x| / 127, rounded down where rounding up
     * would make {@code 127 * scale} overflow (max|x| = Float.MAX_VALUE): the decoded extremes
     * must stay finite, or the segment would not decode to storable intents.
     */
    private static void encodeInt8(MemorySegment source, int dimension, MemorySegment dst, long at) {
        float maxAbs = 0f;
        for (int i = 0; i < dimension; i++) {
            maxAbs = Math.max(maxAbs, Math.abs(source.getAtIndex(ValueLayout.JAVA_FLOAT, i)));
        }
        float scale = maxAbs / INT8_MAX;
        if (Float.isInfinite(scale * INT8_MAX)) {
            scale = Math.nextDown(scale);
        }
        dst.set(F32, at + INT8_SCALE, scale);
        dst.set(F32, at + INT8_ZERO_POINT, 0f);
        long q = at + INT8_HEADER_BYTES;
        for (int i = 0; i < dimension; i++) {
            int v = 0;
            if (scale != 0f) {
                v = Math.round(source.getAtIndex(ValueLayout.JAVA_FLOAT, i) / scale);
                v = Math.max(-INT8_MAX, Math.min(INT8_MAX, v));
            }
            dst.set(U8, q + i, (byte) v);
        }
    }
}
