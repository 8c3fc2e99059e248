package dev.tala.compaction;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ForwardingFileLayer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * A file layer whose writes take their size from a token bucket first. Compaction writes its
 * outputs through one of these so that a background merge does not starve foreground flushes
 * and WAL syncs of disk bandwidth. Throttling at the file layer catches every write the segment
 * writer makes (its buffer-sized appends and the final header rewrite) without the writer
 * knowing about rates. Everything else is passed through unchanged. One instance serves one
 * compaction, on one thread.
 */
final class RateLimitedFileLayer extends ForwardingFileLayer {
    private final TokenBucket bucket;
    /** The compaction's cancellation: a closing database must not wait out a throttled sleep. */
    private final BooleanSupplier cancelled;
    private long throttledNanos;

    RateLimitedFileLayer(FileLayer inner, TokenBucket bucket, BooleanSupplier cancelled) {
        super(inner);
        this.bucket = bucket;
        this.cancelled = cancelled;
    }

    /** Time this layer's writes slept (the bucket may be shared with other writers). */
    long throttledNanos() {
        return throttledNanos;
    }

    @Override
    protected void beforeWrite(Path file, long bytes) throws IOException {
        throttledNanos += bucket.acquire(bytes, cancelled);
    }
}
