package dev.tala.bench.compare;

import java.util.Arrays;

/** Per-operation latencies of one timed phase, for throughput and percentiles. */
public final class Latencies {
    private final long[] nanos;
    private int count;
    private long wallNanos;

    public Latencies(int capacity) {
        this.nanos = new long[capacity];
    }

    public synchronized void record(long n) {
        if (count < nanos.length) {
            nanos[count++] = n;
        }
    }

    void wall(long n) {
        this.wallNanos = n;
    }

    public int count() {
        return count;
    }

    double opsPerSecond() {
        return count / (wallNanos / 1e9);
    }

    public double percentileMicros(double p) {
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] / 1000.0;
    }

    double wallSeconds() {
        return wallNanos / 1e9;
    }

    public long wallNanos() {
        return wallNanos;
    }
}
