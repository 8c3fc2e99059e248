package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.F32;
import static dev.tala.segment.format.TbfFormat.U16;
import static dev.tala.segment.format.TbfFormat.U8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Stored encodings of embedding values, checked against hand-computed bytes. */
class EmbeddingCodecTest {
    @Test
    void stridesAreAlignedToSixtyFourBytes() {
        assertEquals(1536, EmbeddingType.F32.stride(384));
        assertEquals(768, EmbeddingType.F16.stride(384));
        assertEquals(768, EmbeddingType.BF16.stride(384));
        assertEquals(448, EmbeddingType.INT8.stride(384));
        assertEquals(64, EmbeddingType.F32.stride(1));
        assertEquals(64, EmbeddingType.INT8.stride(56));
        assertEquals(128, EmbeddingType.INT8.stride(57));
        assertEquals(128, EmbeddingType.F16.stride(33));
    }

    @Test
    void bf16RoundsToNearestEven() {
        assertEquals((short) 0x3F80, EmbeddingCodec.toBf16(1.0f));
        assertEquals((short) 0x3F80, EmbeddingCodec.toBf16(Float.intBitsToFloat(0x3F808000)));
        assertEquals((short) 0x3F82, EmbeddingCodec.toBf16(Float.intBitsToFloat(0x3F818000)));
        assertEquals((short) 0x3F81, EmbeddingCodec.toBf16(Float.intBitsToFloat(0x3F808001)));
        assertEquals((short) 0x3F80, EmbeddingCodec.toBf16(Float.intBitsToFloat(0x3F807FFF)));
        assertEquals((short) 0xBF80, EmbeddingCodec.toBf16(-1.0f));
        assertEquals(-2.5f, EmbeddingCodec.fromBf16(EmbeddingCodec.toBf16(-2.5f)));
    }

    @Test
    void lossyEncodingsSaturateInsteadOfOverflowing() {
        assertEquals((short) 0x7F7F, EmbeddingCodec.toBf16(Float.MAX_VALUE));
        assertEquals((short) 0xFF7F, EmbeddingCodec.toBf16(-Float.MAX_VALUE));
        assertEquals(65504f, Float.float16ToFloat(EmbeddingCodec.toF16(70000f)));
        assertEquals(-65504f, Float.float16ToFloat(EmbeddingCodec.toF16(-1e9f)));
        assertEquals(0.5f, Float.float16ToFloat(EmbeddingCodec.toF16(0.5f)));
    }

    @Test
    void f32IsStoredLittleEndianBitForBit() {
        MemorySegment s = MemorySegment.ofArray(new byte[64]);
        EmbeddingCodec.encode(EmbeddingType.F32, new float[] {1.0f, -0.0f}, s, 0);
        assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3F, 0, 0, 0, (byte) 0x80},
                s.asSlice(0, 8).toArray(U8));
        assertArrayEquals(new float[] {1.0f, -0.0f}, EmbeddingCodec.decode(EmbeddingType.F32, s, 0, 2));
    }

    @Test
    void int8QuantizesSymmetrically() {
        MemorySegment s = MemorySegment.ofArray(new byte[64]);
        EmbeddingCodec.encode(EmbeddingType.INT8, new float[] {2.54f, -1.27f, 0f, 0.009f}, s, 0);
        float scale = 2.54f / 127;
        assertEquals(scale, s.get(F32, 0));
        assertEquals(0f, s.get(F32, 4));
        assertArrayEquals(new byte[] {127, -63, 0, 0}, s.asSlice(8, 4).toArray(U8));
        float[] back = EmbeddingCodec.decode(EmbeddingType.INT8, s, 0, 4);
        assertEquals(2.54f, back[0], 1e-6f);
        assertEquals(scale * -63, back[1]);
    }

    /**
     * max|x| / 127 rounds up for max|x| = Float.MAX_VALUE, and 127 times that scale overflowed:
     * the largest component decoded to infinity and the segment no longer read. Every finite
     * vector must decode to finite values, each within a scale of where it was, sign kept.
     */
    @Test
    void int8OfTheLargestFloatsDecodesFinite() {
        float max = Float.MAX_VALUE;
        float[][] vectors = {
            {max, 1f, 0f, -1f},
            {-max, max / 3, -max / 127, 0f},
            {Math.nextDown(max), -Math.nextDown(max), 1e38f, 0f},
            {max, max, max, max},
        };
        for (float[] v : vectors) {
            MemorySegment s = MemorySegment.ofArray(new byte[64]);
            EmbeddingCodec.encode(EmbeddingType.INT8, v, s, 0);
            float scale = s.get(F32, 0);
            assertTrue(Float.isFinite(scale * 127), Arrays.toString(v) + ": scale " + scale);
            float[] back = EmbeddingCodec.decode(EmbeddingType.INT8, s, 0, v.length);
            for (int i = 0; i < v.length; i++) {
                assertTrue(Float.isFinite(back[i]), Arrays.toString(v) + " decodes to " + Arrays.toString(back));
                assertTrue(Math.abs((double) back[i] - v[i]) <= scale, v[i] + " decodes to " + back[i] + ", scale " + scale);
                assertTrue(Math.signum(back[i]) * Math.signum(v[i]) >= 0, v[i] + " decodes to " + back[i]);
            }
        }
    }

    @Test
    void int8OfTheZeroVectorHasScaleZero() {
        MemorySegment s = MemorySegment.ofArray(new byte[64]);
        EmbeddingCodec.encode(EmbeddingType.INT8, new float[3], s, 0);
        assertEquals(0f, s.get(F32, 0));
        assertArrayEquals(new float[3], EmbeddingCodec.decode(EmbeddingType.INT8, s, 0, 3));
    }

    @Test
    void int8DecodingHonoursAnyZeroPoint() {
        MemorySegment s = MemorySegment.ofArray(new byte[64]);
        s.set(F32, 0, 0.5f);
        s.set(F32, 4, 2.0f);
        s.set(U8, 8, (byte) -128);
        s.set(U8, 9, (byte) 0);
        s.set(U8, 10, (byte) 127);
        assertArrayEquals(new float[] {-62f, 2f, 65.5f}, EmbeddingCodec.decode(EmbeddingType.INT8, s, 0, 3));
    }

    @Test
    void f16AndBf16UseTwoLittleEndianBytesPerValue() {
        MemorySegment s = MemorySegment.ofArray(new byte[64]);
        EmbeddingCodec.encode(EmbeddingType.F16, new float[] {1.0f, -2.0f}, s, 0);
        assertEquals((short) 0x3C00, s.get(U16, 0));
        assertEquals((short) 0xC000, s.get(U16, 2));
        EmbeddingCodec.encode(EmbeddingType.BF16, new float[] {1.0f, -2.0f}, s, 8);
        assertEquals((short) 0x3F80, s.get(U16, 8));
        assertEquals((short) 0xC000, s.get(U16, 10));
        assertArrayEquals(new float[] {1.0f, -2.0f}, EmbeddingCodec.decode(EmbeddingType.BF16, s, 8, 2));
    }
}
