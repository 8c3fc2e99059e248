package dev.tala.compaction;

import java.io.InterruptedIOException;
import java.util.function.BooleanSupplier;

/**
 * A token bucket that limits bytes per second. Tokens refill continuously at the rate up to a
 * burst capacity; taking more than is available drives the balance negative and the taker
 * sleeps until the debt is paid. Allowing debt means a request larger than the burst (one
 * writer buffer, say) is never refused, and the long-run rate is still exactly the limit.
 *
 * <p>Thread-safe: the balance is updated under a lock, the sleep happens outside it.
 */
public final class TokenBucket {
    /** Time source and sleeper; tests substitute a fake one to check the arithmetic without waiting. */
    public interface Clock {
        long nanoTime();

        void sleepNanos(long nanos) throws InterruptedException;

        Clock SYSTEM = new Clock() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void sleepNanos(long nanos) throws InterruptedException {
                Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
            }
        };
    }

    private static final double NANOS_PER_SECOND = 1e9;
    /**
     * The longest one sleep lasts before a cancellable caller checks whether to give up: a low
     * rate makes a buffer's debt minutes long, and a closing database waited all of it.
     */
    static final long SLEEP_SLICE_NANOS = 50_000_000;

    private final double bytesPerSecond;
    private final double capacity;
    private final Clock clock;
    private double tokens;
    private long refilledAt;
    private long sleptNanos;

    /** A bucket that starts full, holding {@link CompactionDefaults#RATE_LIMIT_BURST_SECONDS} of the rate. */
    public TokenBucket(long bytesPerSecond) {
        this(bytesPerSecond, burstFor(bytesPerSecond), Clock.SYSTEM);
    }

    public TokenBucket(long bytesPerSecond, long burstBytes, Clock clock) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("rate must be positive, got " + bytesPerSecond + " bytes/s");
        }
        if (burstBytes <= 0) {
            throw new IllegalArgumentException("burst must be positive, got " + burstBytes + " bytes");
        }
        this.bytesPerSecond = bytesPerSecond;
        this.capacity = burstBytes;
        this.clock = clock;
        this.tokens = burstBytes;
        this.refilledAt = clock.nanoTime();
    }

    static long burstFor(long bytesPerSecond) {
        return Math.max(1, (long) (bytesPerSecond * CompactionDefaults.RATE_LIMIT_BURST_SECONDS));
    }

    /** Takes {@code bytes} tokens, sleeping as long as the rate requires; returns the nanoseconds slept. */
    public long acquire(long bytes) throws InterruptedIOException {
        return acquire(bytes, () -> false);
    }

    /**
     * As {@link #acquire(long)}, giving up the sleep within {@link #SLEEP_SLICE_NANOS} once
     * {@code cancelled} turns true.
     *
     * @throws InterruptedIOException if interrupted or cancelled while sleeping
     */
    public long acquire(long bytes, BooleanSupplier cancelled) throws InterruptedIOException {
        if (bytes <= 0) {
            return 0;
        }
        long waitNanos;
        synchronized (this) {
            long now = clock.nanoTime();
            tokens = Math.min(capacity, tokens + (now - refilledAt) * bytesPerSecond / NANOS_PER_SECOND);
            refilledAt = now;
            tokens -= bytes;
            waitNanos = tokens >= 0 ? 0 : (long) Math.ceil(-tokens * NANOS_PER_SECOND / bytesPerSecond);
            sleptNanos += waitNanos;
        }
        for (long left = waitNanos; left > 0; left -= SLEEP_SLICE_NANOS) {
            if (cancelled.getAsBoolean()) {
                throw new InterruptedIOException("cancelled while rate-limited");
            }
            try {
                clock.sleepNanos(Math.min(left, SLEEP_SLICE_NANOS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                InterruptedIOException io = new InterruptedIOException("interrupted while rate-limited");
                io.initCause(e);
                throw io;
            }
        }
        return waitNanos;
    }

    /** Total time all callers were told to sleep. */
    public synchronized long sleptNanos() {
        return sleptNanos;
    }

    public long bytesPerSecond() {
        return (long) bytesPerSecond;
    }
}
