package dev.tala.segment;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.StorageException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;

/**
 * One region of a mapped segment whose bytes are handed out only after their CRC32C has matched
 * the footer directory. The check runs once, on first use, so opening a segment stays cheap while
 * a flipped bit can still never reach a caller. A mismatch is remembered: every later access
 * fails with the same {@link CorruptionException} (file, region offset, region name) without
 * hashing the region again.
 *
 * <p>Thread-safe. The verification itself runs under this object's lock, so two threads that
 * touch a large region at once hash it once.
 */
final class CheckedRegion {
    private final MemorySegment bytes;
    private final RegionEntry entry;
    private final String name;
    private final String file;

    /**
     * Deliberately a plain field (racy single-check, like String.hash): it is written only under
     * the lock, only from false to true, and only after the checksum matched. A thread that reads
     * a stale false takes the lock and learns the truth there. A thread that reads true needs
     * nothing else the verifying thread wrote: the bytes are an immutable mapping and the slice is
     * published through final fields. So the fast path is one ordinary load, cheaper than a
     * volatile read, and the JIT may even hoist it out of a caller's loop.
     */
    private boolean verified;
    /** What was wrong, once found; guarded by {@code this}. */
    private String failure;

    /**
     * @param data the whole mapped file
     * @param entry the region's directory entry, already validated to lie inside {@code data}
     * @param name how error messages name the region, e.g. "timestamps region"
     */
    CheckedRegion(MemorySegment data, RegionEntry entry, String name, String file) {
        this.bytes = data.asSlice(entry.offset(), entry.storedLength());
        this.entry = entry;
        this.name = name;
        this.file = file;
    }

    /**
     * The region's stored bytes, checked.
     *
     * @throws CorruptionException if they do not match their checksum (on this and every later call)
     */
    MemorySegment bytes() {
        if (!verified) {
            verify();
        }
        return bytes;
    }

    /** Checks the region now unless that was done before; a no-op once it passed. */
    synchronized void verify() {
        if (verified) {
            return;
        }
        if (failure == null) {
            int crc;
            try {
                crc = Crc32c.of(bytes, 0, bytes.byteSize());
            } catch (UncheckedIOException e) {
                // Not remembered: the page may be readable once the disk has room again.
                throw new StorageException("cannot read the " + name + " of " + file
                        + " at offset " + entry.offset(), e.getCause());
            }
            if (crc == entry.crc()) {
                verified = true;
                return;
            }
            failure = name + " checksum mismatch (stored " + SegmentHeader.hex(entry.crc()) + ", computed "
                    + SegmentHeader.hex(crc) + ")";
        }
        throw new CorruptionException(file, entry.offset(), failure);
    }

    /**
     * The bytes without the check, for a view that is built at open but only ever read after a
     * {@link #bytes()} call made by its owner (the id index over the ids column).
     */
    MemorySegment uncheckedBytes() {
        return bytes;
    }

    /** File offset of the region's first byte. */
    long offset() {
        return entry.offset();
    }

    RegionEntry entry() {
        return entry;
    }
}
