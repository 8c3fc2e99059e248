package dev.tala.core.model;

import dev.tala.core.error.InvalidIntentException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.security.SecureRandom;

/**
 * A 128-bit intent identifier. Ordered as 16 unsigned big-endian bytes, which is the order of
 * rows in a segment and of keys in the memtable. Text form is the canonical lower-case UUID.
 */
public final class IntentId implements Comparable<IntentId> {
    public static final int BYTES = 16;
    private static final ValueLayout.OfLong BIG_ENDIAN_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final long msb;
    private final long lsb;

    private IntentId(long msb, long lsb) {
        this.msb = msb;
        this.lsb = lsb;
    }

    public static IntentId of(long mostSignificantBits, long leastSignificantBits) {
        return new IntentId(mostSignificantBits, leastSignificantBits);
    }

    /** A new time-ordered UUIDv7, strictly greater than every id this process generated before. */
    public static IntentId newV7() {
        return V7Generator.INSTANCE.next();
    }

    public long mostSignificantBits() {
        return msb;
    }

    public long leastSignificantBits() {
        return lsb;
    }

    /** Parses the canonical 8-4-4-4-12 hexadecimal form (either case). */
    public static IntentId parse(String text) {
        if (text == null || text.length() != 36 || text.charAt(8) != '-' || text.charAt(13) != '-'
                || text.charAt(18) != '-' || text.charAt(23) != '-') {
            throw malformed(text);
        }
        long hi = 0;
        long lo = 0;
        int digits = 0;
        for (int i = 0; i < 36; i++) {
            char c = text.charAt(i);
            if (c == '-' && (i == 8 || i == 13 || i == 18 || i == 23)) {
                continue;
            }
            int v = Character.digit(c, 16);
            if (v < 0 || c > 'f') {
                throw malformed(text);
            }
            if (digits < 16) {
                hi = (hi << 4) | v;
            } else {
                lo = (lo << 4) | v;
            }
            digits++;
        }
        return new IntentId(hi, lo);
    }

    private static InvalidIntentException malformed(String text) {
        return new InvalidIntentException("id", "\"" + text
                + "\" is not a UUID (expected 8-4-4-4-12 hexadecimal digits, e.g. 0190a6f2-7c1e-7a3b-9f00-0123456789ab)");
    }

    public static IntentId readFrom(MemorySegment segment, long offset) {
        return new IntentId(segment.get(BIG_ENDIAN_LONG, offset), segment.get(BIG_ENDIAN_LONG, offset + 8));
    }

    public void writeTo(MemorySegment segment, long offset) {
        segment.set(BIG_ENDIAN_LONG, offset, msb);
        segment.set(BIG_ENDIAN_LONG, offset + 8, lsb);
    }

    public byte[] toBytes() {
        byte[] out = new byte[BYTES];
        writeTo(MemorySegment.ofArray(out), 0);
        return out;
    }

    public static IntentId fromBytes(byte[] bytes) {
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("an id is 16 bytes, got " + bytes.length);
        }
        return readFrom(MemorySegment.ofArray(bytes), 0);
    }

    @Override
    public int compareTo(IntentId o) {
        int c = Long.compareUnsigned(msb, o.msb);
        return c != 0 ? c : Long.compareUnsigned(lsb, o.lsb);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IntentId other && other.msb == msb && other.lsb == lsb;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(msb * 31 + lsb);
    }

    @Override
    public String toString() {
        char[] out = new char[36];
        writeHex(out, 0, msb >>> 32, 8);
        out[8] = '-';
        writeHex(out, 9, (msb >>> 16) & 0xFFFF, 4);
        out[13] = '-';
        writeHex(out, 14, msb & 0xFFFF, 4);
        out[18] = '-';
        writeHex(out, 19, lsb >>> 48, 4);
        out[23] = '-';
        writeHex(out, 24, lsb & 0xFFFF_FFFF_FFFFL, 12);
        return new String(out);
    }

    private static void writeHex(char[] out, int at, long value, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            out[at + i] = Character.forDigit((int) (value & 0xF), 16);
            value >>>= 4;
        }
    }

    /**
     * RFC 9562 UUIDv7: 48-bit Unix milliseconds, version 7, 74 random bits. Within one
     * millisecond (or if the clock steps back) the previous id is incremented, so ids from one
     * process are strictly increasing: appends then land at the end of the memtable.
     */
    private static final class V7Generator {
        static final V7Generator INSTANCE = new V7Generator();
        private final SecureRandom random = new SecureRandom();
        private long lastMsb;
        private long lastLsb;

        synchronized IntentId next() {
            long millis = System.currentTimeMillis() & 0xFFFF_FFFF_FFFFL;
            long lastMillis = lastMsb >>> 16;
            long hi;
            long lo;
            if (millis > lastMillis) {
                hi = (millis << 16) | 0x7000L | (random.nextInt() & 0x0FFFL);
                lo = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
            } else {
                hi = lastMsb;
                long randB = (lastLsb & 0x3FFF_FFFF_FFFF_FFFFL) + 1;
                if (randB > 0x3FFF_FFFF_FFFF_FFFFL) {
                    // rand_b overflowed: carry into rand_a, and from rand_a into the timestamp.
                    randB = 0;
                    long randA = (hi & 0x0FFFL) + 1;
                    long ms = hi >>> 16;
                    if (randA > 0x0FFFL) {
                        randA = 0;
                        ms++;
                    }
                    hi = (ms << 16) | 0x7000L | randA;
                }
                lo = randB | 0x8000_0000_0000_0000L;
            }
            lastMsb = hi;
            lastLsb = lo;
            return new IntentId(hi, lo);
        }
    }
}
