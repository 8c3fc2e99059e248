package dev.tala.compaction;

/** A clock that only moves when someone sleeps on it, so rate limits can be checked exactly. */
final class FakeClock implements TokenBucket.Clock {
    long now = 1_000_000_000L;
    long slept;
    int sleeps;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void sleepNanos(long nanos) {
        slept += nanos;
        sleeps++;
        now += nanos;
    }

    void advance(long nanos) {
        now += nanos;
    }
}
