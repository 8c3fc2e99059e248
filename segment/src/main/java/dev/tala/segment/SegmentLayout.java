package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.HEADER_BYTES;
import static dev.tala.segment.format.TbfFormat.alignUp;

import dev.tala.segment.format.RegionKind;
import java.util.EnumMap;
import java.util.Map;

/**
 * Where each region of a segment will start, planned before the first byte is written: the header
 * carries every region offset, and the writer makes a single pass.
 */
final class SegmentLayout {
    private final Map<RegionKind, Long> offsets = new EnumMap<>(RegionKind.class);
    private long next = HEADER_BYTES;

    /** Places a region of {@code length} bytes after the previous one, 64-aligned. */
    void add(RegionKind kind, long length) {
        long at = alignUp(next);
        offsets.put(kind, at);
        next = Math.addExact(at, length);
    }

    long offset(RegionKind kind) {
        Long at = offsets.get(kind);
        if (at == null) {
            throw new IllegalStateException("region " + kind + " was not planned");
        }
        return at;
    }

    long footerOffset() {
        return alignUp(next);
    }
}
