package dev.tala.cli.demo;

import dev.tala.core.model.IntentId;

/**
 * UUIDv7 ids (RFC 9562 layout: 48-bit Unix milliseconds, version 7, variant 10, 74 random bits)
 * made from the simulated time and a seeded generator instead of the clock and SecureRandom, so
 * the demo data is reproducible. Within one millisecond the previous id is incremented, so ids
 * strictly increase as long as timestamps do not go back, which the scheduler guarantees.
 */
final class V7Ids {
    private static final long RAND_B_MASK = 0x3FFF_FFFF_FFFF_FFFFL;
    private static final long VARIANT = 0x8000_0000_0000_0000L;
    private static final long VERSION = 0x7000L;

    private final SplitMix64 rnd;
    private long lastMsb;
    private long lastLsb;
    private boolean any;

    V7Ids(SplitMix64 rnd) {
        this.rnd = rnd;
    }

    IntentId next(long timestampNs) {
        long millis = timestampNs / 1_000_000L;
        long msb;
        long lsb;
        if (!any || millis > (lastMsb >>> 16)) {
            msb = (millis << 16) | VERSION | (rnd.nextLong() & 0x0FFFL);
            lsb = VARIANT | (rnd.nextLong() & RAND_B_MASK);
        } else {
            msb = lastMsb;
            long randB = (lastLsb & RAND_B_MASK) + 1;
            if (randB > RAND_B_MASK) {
                // rand_b overflowed: carry into rand_a, and from rand_a into the milliseconds.
                randB = 0;
                long randA = (msb & 0x0FFFL) + 1;
                long ms = msb >>> 16;
                if (randA > 0x0FFFL) {
                    randA = 0;
                    ms++;
                }
                msb = (ms << 16) | VERSION | randA;
            }
            lsb = VARIANT | randB;
        }
        any = true;
        lastMsb = msb;
        lastLsb = lsb;
        return IntentId.of(msb, lsb);
    }
}
