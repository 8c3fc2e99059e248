package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.checksum.Fnv1a64;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.model.IntentId;
import java.lang.foreign.MemorySegment;

/**
 * The segment's bloom filter over row ids, compatible with the reference implementation: sized
 * for a 1% false-positive rate, probed by double hashing over FNV-1a-64. A filter is a view of
 * the stored region (u32 num_hashes, u64 num_bits, then the u64 words); {@link #build} makes one
 * in memory for the writer.
 */
public final class BloomFilter {
    private final MemorySegment region;
    private final int numHashes;
    private final long numBits;
    /** 2^64 mod num_bits: what a wrap of the u64 sum h1 + i*h2 takes away from the residue. */
    private final long wrap;

    private BloomFilter(MemorySegment region, int numHashes, long numBits) {
        this.region = region;
        this.numHashes = numHashes;
        this.numBits = numBits;
        this.wrap = Long.remainderUnsigned(Long.remainderUnsigned(-1L, numBits) + 1, numBits);
    }

    /** {@code max(64, ceil(-n ln(0.01) / ln(2)^2))}. */
    public static long numBitsFor(long n) {
        if (n == 0) {
            return BLOOM_MIN_BITS;
        }
        double bits = Math.ceil(-n * StrictMath.log(BLOOM_FALSE_POSITIVE_RATE) / (BLOOM_LN_2 * BLOOM_LN_2));
        return Math.max(BLOOM_MIN_BITS, (long) bits);
    }

    /** {@code max(1, ceil(num_bits / n * ln 2))}; 1 for an empty filter. */
    public static int numHashesFor(long n, long numBits) {
        if (n == 0) {
            return 1;
        }
        return (int) Math.max(1, (long) Math.ceil((double) numBits / n * BLOOM_LN_2));
    }

    public static long wordCount(long numBits) {
        return (numBits + 63) >>> 6;
    }

    /** A filter holding {@code ids}, in its stored form. */
    public static BloomFilter build(IntentId[] ids) {
        long numBits = numBitsFor(ids.length);
        int numHashes = numHashesFor(ids.length, numBits);
        long words = wordCount(numBits);
        MemorySegment region = MemorySegment.ofArray(new byte[Math.toIntExact(BLOOM_HEAD_BYTES + words * 8)]);
        region.set(U32, BLOOM_NUM_HASHES, numHashes);
        region.set(U64, BLOOM_NUM_BITS, numBits);
        BloomFilter filter = new BloomFilter(region, numHashes, numBits);
        for (IntentId id : ids) {
            filter.probe(id, true);
        }
        return filter;
    }

    /**
     * A view of the stored filter {@code region}, which starts at file offset {@code offset}.
     *
     * @throws CorruptionException if its head is implausible or disagrees with its length
     */
    public static BloomFilter view(MemorySegment region, long offset, String file) {
        if (region.byteSize() < BLOOM_HEAD_BYTES) {
            throw new CorruptionException(file, offset, "bloom region is " + region.byteSize()
                    + " bytes, shorter than its " + BLOOM_HEAD_BYTES + "-byte head");
        }
        int numHashes = region.get(U32, BLOOM_NUM_HASHES);
        if (numHashes < 1 || numHashes > BLOOM_MAX_HASHES) {
            throw new CorruptionException(file, offset + BLOOM_NUM_HASHES, "bloom num_hashes "
                    + Integer.toUnsignedString(numHashes) + " is outside 1.." + BLOOM_MAX_HASHES);
        }
        long numBits = region.get(U64, BLOOM_NUM_BITS);
        long words = region.byteSize() - BLOOM_HEAD_BYTES;
        if (numBits <= 0 || words % 8 != 0 || wordCount(numBits) != words / 8) {
            throw new CorruptionException(file, offset + BLOOM_NUM_BITS, "bloom num_bits "
                    + Long.toUnsignedString(numBits) + " disagrees with its " + words + " bytes of words");
        }
        return new BloomFilter(region, numHashes, numBits);
    }

    public int numHashes() {
        return numHashes;
    }

    public long numBits() {
        return numBits;
    }

    /** The stored bytes: head then words. */
    public MemorySegment region() {
        return region;
    }

    /** False means {@code id} is certainly not in the segment. */
    public boolean mightContain(IntentId id) {
        return probe(id, false);
    }

    /**
     * Visits bits {@code (h1 + i*h2) mod num_bits} (wrapping u64 arithmetic) for i < num_hashes,
     * setting them or stopping at the first clear one. Rather than k 64-bit divisions it keeps the
     * residue: each step adds {@code h2 mod m}, and when the u64 sum wraps, subtracts
     * {@code 2^64 mod m}, which yields exactly the same bits with two divisions per id.
     */
    private boolean probe(IntentId id, boolean set) {
        long m = numBits;
        long h1 = Fnv1a64.hash(id);
        long h2 = Fnv1a64.hashLittleEndian(h1) + 1;
        long step = Long.remainderUnsigned(h2, m);
        long x = h1;
        long bit = Long.remainderUnsigned(h1, m);
        for (int i = 0; ; ) {
            long at = BLOOM_WORDS + (bit >>> 6) * 8;
            long word = region.get(U64, at);
            long mask = 1L << (bit & 63);
            if (set) {
                region.set(U64, at, word | mask);
            } else if ((word & mask) == 0) {
                return false;
            }
            if (++i == numHashes) {
                return true;
            }
            long next = x + h2;
            bit += step;
            if (Long.compareUnsigned(bit, m) >= 0) {
                bit -= m;
            }
            if (Long.compareUnsigned(next, x) < 0) {
                bit = Long.compareUnsigned(bit, wrap) >= 0 ? bit - wrap : bit + (m - wrap);
            }
            x = next;
        }
    }
}
