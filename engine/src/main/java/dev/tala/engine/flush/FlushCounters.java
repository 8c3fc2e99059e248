package dev.tala.engine.flush;

import java.util.concurrent.atomic.AtomicLong;

/** Flushes counted for stats: the background ones and those a WAL replay made while opening. */
public final class FlushCounters {
    private final AtomicLong flushes = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong nanos = new AtomicLong();

    void add(long segmentBytes, long tookNanos) {
        flushes.incrementAndGet();
        bytesWritten.addAndGet(segmentBytes);
        nanos.addAndGet(tookNanos);
    }

    public Stats stats() {
        return new Stats(flushes.get(), bytesWritten.get(), nanos.get());
    }

    /** Counters for stats. */
    public record Stats(long flushes, long bytesWritten, long nanos) {
    }
}
