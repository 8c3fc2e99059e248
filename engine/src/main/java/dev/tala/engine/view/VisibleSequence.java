package dev.tala.engine.view;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The highest sequence number readers may see. It only moves forward, and only past a sequence
 * number once everything at or below it is in the WAL as far as the durability mode promises;
 * because the WAL makes records durable in order, advancing to the maximum of what writers
 * report is always safe.
 */
public final class VisibleSequence {
    private final AtomicLong value;

    public VisibleSequence(long initial) {
        this.value = new AtomicLong(initial);
    }

    public long get() {
        return value.get();
    }

    public void advanceTo(long sequence) {
        value.accumulateAndGet(sequence, Math::max);
    }
}
