package dev.tala.core.checksum;

import dev.tala.core.model.IntentId;

/**
 * 64-bit FNV-1a, the hash behind the TBF bloom filter. Kept byte-for-byte compatible with the
 * reference implementation: bytes are folded in file order (ids big-endian, the second-round
 * input as 8 little-endian bytes).
 */
public final class Fnv1a64 {
    public static final long OFFSET_BASIS = 0xcbf29ce484222325L;
    public static final long PRIME = 0x100000001b3L;

    private Fnv1a64() {
    }

    public static long hash(byte[] bytes) {
        long h = OFFSET_BASIS;
        for (byte b : bytes) {
            h = (h ^ (b & 0xFF)) * PRIME;
        }
        return h;
    }

    /** FNV-1a of the id's 16 big-endian bytes, without allocating them. */
    public static long hash(IntentId id) {
        long h = OFFSET_BASIS;
        h = foldBigEndian(h, id.mostSignificantBits());
        return foldBigEndian(h, id.leastSignificantBits());
    }

    /** FNV-1a of {@code value} written as 8 little-endian bytes. */
    public static long hashLittleEndian(long value) {
        long h = OFFSET_BASIS;
        for (int i = 0; i < 8; i++) {
            h = (h ^ ((value >>> (8 * i)) & 0xFF)) * PRIME;
        }
        return h;
    }

    private static long foldBigEndian(long h, long value) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            h = (h ^ ((value >>> shift) & 0xFF)) * PRIME;
        }
        return h;
    }
}
