package dev.tala.engine.write;

import dev.tala.core.layout.DatabaseLayout;
import java.util.concurrent.atomic.AtomicLong;

/** Hands out the numbers that name WAL files and segments; one counter, so names never collide. */
public final class FileNumbers {
    private final AtomicLong next;

    public FileNumbers(long first) {
        this.next = new AtomicLong(first);
    }

    public long next() {
        // Unreachable by counting (an open refuses a MANIFEST numbered near the limit); a name of
        // ours must parse back as ours, and a refused call leaves the counter where it was.
        return next.getAndUpdate(n -> {
            if (n > DatabaseLayout.MAX_FILE_NUMBER) {
                throw new IllegalStateException("file number " + n + " is past " + DatabaseLayout.MAX_FILE_NUMBER);
            }
            return n + 1;
        });
    }

    /** The number the next call to {@link #next()} returns, for the MANIFEST. */
    public long peek() {
        return next.get();
    }
}
