package dev.tala.core.io;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A read-only memory mapping of a whole file. Closing it unmaps the memory; any later access
 * through {@link #segment()} fails with an IllegalStateException rather than touching freed
 * memory, so callers reference-count regions that readers may still hold.
 */
public interface MappedRegion extends AutoCloseable {
    Path path();

    MemorySegment segment();

    /** Unmaps the file. Idempotent. */
    @Override
    void close();
}
