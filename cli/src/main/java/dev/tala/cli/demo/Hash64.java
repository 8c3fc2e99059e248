package dev.tala.cli.demo;

/**
 * A 64-bit string hash for feature hashing and context hashes: FNV-1a over UTF-16 code units
 * (one step per char), finished with the murmur3 64-bit finalizer. FNV-1a alone leaves the low
 * bits of short inputs poorly mixed, and the embedder takes both a bucket and a sign from them.
 * Pure integer arithmetic, so every machine gets the same values.
 */
final class Hash64 {
    static final long FNV_OFFSET = 0xcbf29ce484222325L;
    static final long FNV_PRIME = 0x100000001b3L;

    private Hash64() {
    }

    /** The start state for a hash in the family {@code seed}; different seeds give unrelated hashes. */
    static long begin(long seed) {
        return FNV_OFFSET ^ mix(seed);
    }

    static long step(long state, char c) {
        return (state ^ c) * FNV_PRIME;
    }

    static long of(long seed, CharSequence text) {
        long h = begin(seed);
        for (int i = 0, n = text.length(); i < n; i++) {
            h = step(h, text.charAt(i));
        }
        return mix(h);
    }

    /** The murmur3 fmix64 finalizer: every input bit affects every output bit. */
    static long mix(long z) {
        z ^= z >>> 33;
        z *= 0xff51afd7ed558ccdL;
        z ^= z >>> 33;
        z *= 0xc4ceb9fe1a85ec53L;
        z ^= z >>> 33;
        return z;
    }
}
