package dev.tala.engine.write;

import java.util.concurrent.atomic.AtomicLong;

/** Hands out the numbers that name WAL files and segments; one counter, so names never collide. */
public final class FileNumbers {
    private final AtomicLong next;

    public FileNumbers(long first) {
        this.next = new AtomicLong(first);
    }

    public long next() {
        return next.getAndIncrement();
    }

    /** The number the next call to {@link #next()} returns, for the MANIFEST. */
    public long peek() {
        return next.get();
    }
}
