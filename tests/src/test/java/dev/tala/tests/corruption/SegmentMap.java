package dev.tala.tests.corruption;

import dev.tala.segment.format.RegionKind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Names the part of an undamaged TBF segment a byte offset falls in (header, a region, padding,
 * footer, trailer), from the header's footer offset and the footer directory (docs/FORMAT.md).
 * Only for messages and the per-part counts: no check depends on it.
 */
final class SegmentMap {
    private static final int HEADER_BYTES = 128;
    private static final int FOOTER_OFFSET_FIELD = 96;
    private static final int FOOTER_FIXED_BYTES = 72;
    private static final int ENTRY_BYTES = 40;

    private SegmentMap() {
    }

    /** {@code part} groups offsets for counting ("embeddings region"); {@code detail} pins the byte. */
    static Location locate(byte[] file, long offset) {
        ByteBuffer in = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        if (offset < HEADER_BYTES) {
            return new Location("header", "header byte " + offset);
        }
        int footer = (int) in.getLong(FOOTER_OFFSET_FIELD);
        int regions = in.getInt(footer + 4);
        long directoryEnd = footer + FOOTER_FIXED_BYTES + (long) ENTRY_BYTES * regions;
        if (offset >= directoryEnd + 4) {
            return new Location("trailer", "trailer byte " + (offset - directoryEnd - 4));
        }
        if (offset >= directoryEnd) {
            return new Location("footer", "footer checksum");
        }
        if (offset >= footer + FOOTER_FIXED_BYTES) {
            return new Location("footer", "footer directory entry " + (offset - footer - FOOTER_FIXED_BYTES) / ENTRY_BYTES);
        }
        if (offset >= footer) {
            return new Location("footer", "footer byte " + (offset - footer));
        }
        for (int i = 0; i < regions; i++) {
            int entry = footer + FOOTER_FIXED_BYTES + i * ENTRY_BYTES;
            int kind = Short.toUnsignedInt(in.getShort(entry));
            long start = in.getLong(entry + 8);
            long length = in.getLong(entry + 16);
            if (offset >= start && offset < start + length) {
                RegionKind known = RegionKind.ofCode(kind);
                String name = (known == null ? "kind " + kind : known.label()) + " region";
                return new Location(name, name + " byte " + (offset - start));
            }
        }
        return new Location("padding", "zero padding between regions");
    }
}
