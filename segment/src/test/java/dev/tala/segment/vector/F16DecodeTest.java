package dev.tala.segment.vector;

import static org.junit.jupiter.api.Assertions.fail;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import org.junit.jupiter.api.Test;

/** The vector f16 decoder is Float.float16ToFloat, bit for bit, on all 65,536 patterns (NaNs: as NaNs). */
class F16DecodeTest {
    private static final int PASSES = 8;

    @Test
    void everyHalfPatternDecodesLikeTheJdk() {
        int lanes = Lanes.INTS.length();
        int[] bits = new int[lanes];
        float[] decoded = new float[lanes];
        // Several passes, so that the later ones run the decoder compiled (the JIT's SIMD code).
        for (int pass = 0; pass < PASSES; pass++) {
            for (int first = 0; first < 1 << 16; first += lanes) {
                for (int k = 0; k < lanes; k++) {
                    bits[k] = (short) ((first + k) & 0xFFFF); // sign-extended, as the kernel widens them
                }
                FloatVector v = F16Kernel.decode(IntVector.fromArray(Lanes.INTS, bits, 0));
                v.intoArray(decoded, 0);
                for (int k = 0; k < lanes; k++) {
                    int half = (first + k) & 0xFFFF;
                    float jdk = Float.float16ToFloat((short) half);
                    int expected = Float.floatToRawIntBits(jdk);
                    int actual = Float.floatToRawIntBits(decoded[k]);
                    // NaN payloads: the JDK's own result differs between its Java code (payload kept)
                    // and its F16C intrinsic (signaling NaNs quieted), so only NaN-ness and sign count.
                    boolean same = Float.isNaN(jdk)
                            ? Float.isNaN(decoded[k]) && (actual < 0) == (expected < 0)
                            : actual == expected;
                    if (!same) {
                        fail("half 0x" + Integer.toHexString(half) + " (pass " + pass + ") decoded to 0x"
                                + Integer.toHexString(actual) + ", expected 0x" + Integer.toHexString(expected));
                    }
                }
            }
        }
    }
}
