package dev.tala.segment.vector;

/**
 * The two results of one kernel pass, a dot product and a squared norm, packed into one long (the
 * float bits of the dot product high, of the squared norm low). Kernels run once per stored
 * vector in a search; returning a primitive keeps that loop free of allocation whether or not the
 * JIT manages to inline it.
 */
public final class DotNorm {
    private static final int HIGH = 32;
    private static final long LOW_BITS = 0xFFFF_FFFFL;

    private DotNorm() {
    }

    public static long pack(float dot, float squaredNorm) {
        return ((long) Float.floatToRawIntBits(dot) << HIGH) | (Float.floatToRawIntBits(squaredNorm) & LOW_BITS);
    }

    /** The dot product of the query and the stored vector. */
    public static float dot(long packed) {
        return Float.intBitsToFloat((int) (packed >>> HIGH));
    }

    /** The stored vector's squared Euclidean norm. */
    public static float squaredNorm(long packed) {
        return Float.intBitsToFloat((int) packed);
    }
}
