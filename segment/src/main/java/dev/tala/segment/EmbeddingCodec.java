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

    /**
     * The floats {@code values} read back as after a round trip through {@code type}: the values
     * themselves for f32, a new array of their stored approximation otherwise. Applying it twice
     * gives the same floats as applying it once, so an intent stored this way reads back the same
     * from a memtable, a WAL replay, a flushed segment and a compacted one.
     */
    public static float[] stored(EmbeddingType type, float[] values) {
        if (type == EmbeddingType.F32) {
            return values;
        }
        MemorySegment encoded = MemorySegment.ofArray(new byte[(int) type.vectorBytes(values.length)]);
        encode(type, values, encoded, 0);
        return decode(type, encoded, 0, values.length);
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

    /**
     * The scale for a vector whose largest magnitude is {@code maxAbs}: max|x| / 127, moved by an
     * ulp or two where that is needed for storing to be idempotent, that is for a decoded vector
     * to encode to the same bytes again. That holds for a scale {@code s} when its largest
     * component still quantizes to +-127 and {@code 127 * s / 127 == s} in float arithmetic (the
     * decoded extreme then gives {@code s} back, and every other component keeps its integer,
     * since the error in {@code q * s / s} stays far below a half for {@code |q| <= 127}).
     * {@code 127 * s} must also stay finite, or the extreme would decode to infinity
     * (max|x| = Float.MAX_VALUE, where max|x| / 127 rounds up).
     *
     * <p>A vector whose magnitudes are all below {@code 127 * Float.MIN_VALUE} is a whole number
     * of {@code Float.MIN_VALUE} in each component, and is stored exactly with that as its scale.
     * Between that and a normal scale (max|x| below about 1.5e-36) the scale is a subnormal
     * float of few significant bits, and the largest component may lose more than one scale.
     */
    static float int8Scale(float maxAbs) {
        if (maxAbs == 0f) {
            return 0f;
        }
        if (maxAbs < INT8_MAX * Float.MIN_VALUE) {
            return Float.MIN_VALUE;
        }
        float nearest = maxAbs / INT8_MAX;
        float down = nearest;
        float up = nearest;
        for (int step = 0; step <= 3; step++) {
            if (isIdempotentScale(down, maxAbs)) {
                return down;
            }
            if (isIdempotentScale(up, maxAbs)) {
                return up;
            }
            down = Math.nextDown(down);
            up = Math.nextUp(up);
        }
        return Float.isInfinite(nearest * INT8_MAX) ? Math.nextDown(nearest) : nearest;
    }

    private static boolean isIdempotentScale(float scale, float maxAbs) {
        float extreme = scale * INT8_MAX;
        // 126.75, not 126.5: Math.round takes -126.5 to -126, and a decoded extreme may give
        // 126.99999 against the scale it came from.
        return scale > 0f && Float.isFinite(extreme) && extreme / INT8_MAX == scale && maxAbs / scale >= 126.75f;
    }

    static float fromBf16(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    /**
     * Symmetric quantization: zero_point 0, scale = max|x| / 127 ({@link #int8Scale}), and each
     * component its nearest multiple of the scale, clamped to +-127.
     */
    private static void encodeInt8(MemorySegment source, int dimension, MemorySegment dst, long at) {
        float maxAbs = 0f;
        for (int i = 0; i < dimension; i++) {
            maxAbs = Math.max(maxAbs, Math.abs(source.getAtIndex(ValueLayout.JAVA_FLOAT, i)));
        }
        float scale = int8Scale(maxAbs);
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
