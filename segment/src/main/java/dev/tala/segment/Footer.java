package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.UnsupportedFormatException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The footer: segment-wide statistics and the directory of every region, closed by a CRC32C of
 * the footer bytes. It sits 64-aligned after the last region and is followed by the 8-byte
 * trailer (footer length, magic).
 */
public record Footer(
        int footerVersion,
        long minTimestamp,
        long maxTimestamp,
        long minSequence,
        long maxSequence,
        long putCount,
        long tombstoneCount,
        long foreignIdCount,
        int footerFlags,
        List<RegionEntry> entries) {

    public Footer {
        entries = List.copyOf(entries);
    }

    public boolean hasReverseEdges() {
        return (footerFlags & FOOTER_FLAG_CSC) != 0;
    }

    /** Bytes from footer_offset through the footer CRC, for {@code regionCount} entries. */
    public static long lengthFor(long regionCount) {
        return F_ENTRIES + regionCount * ENTRY_BYTES + FOOTER_CRC_BYTES;
    }

    public int length() {
        return (int) lengthFor(entries.size());
    }

    /** The footer bytes, CRC included (the trailer is not part of them). */
    public byte[] encode() {
        byte[] bytes = new byte[length()];
        MemorySegment s = MemorySegment.ofArray(bytes);
        s.set(U32, F_VERSION, footerVersion);
        s.set(U32, F_REGION_COUNT, entries.size());
        s.set(U64, F_MIN_TIMESTAMP, minTimestamp);
        s.set(U64, F_MAX_TIMESTAMP, maxTimestamp);
        s.set(U64, F_MIN_SEQUENCE, minSequence);
        s.set(U64, F_MAX_SEQUENCE, maxSequence);
        s.set(U64, F_PUT_COUNT, putCount);
        s.set(U64, F_TOMBSTONE_COUNT, tombstoneCount);
        s.set(U64, F_FOREIGN_ID_COUNT, foreignIdCount);
        s.set(U32, F_FLAGS, footerFlags);
        s.set(U32, F_RESERVED, 0);
        long at = F_ENTRIES;
        for (RegionEntry e : entries) {
            s.set(U16, at + E_KIND, (short) e.kind());
            s.set(U8, at + E_ENCODING, (byte) e.encoding());
            s.set(U8, at + E_RESERVED, (byte) 0);
            s.set(U32, at + E_CRC, e.crc());
            s.set(U64, at + E_OFFSET, e.offset());
            s.set(U64, at + E_STORED_LENGTH, e.storedLength());
            s.set(U64, at + E_RAW_LENGTH, e.rawLength());
            s.set(U64, at + E_ELEMENT_COUNT, e.elementCount());
            at += ENTRY_BYTES;
        }
        s.set(U32, at, Crc32c.of(bytes, 0, (int) at));
        return bytes;
    }

    /**
     * Decodes the footer held in {@code bytes} (exactly footer_length bytes, read from file offset
     * {@code footerOffset}): checks its CRC, version, region count and reserved fields. The
     * directory's consistency with the header and the file is {@link RegionDirectory}'s job.
     */
    public static Footer decode(MemorySegment bytes, long footerOffset, String file) {
        long length = bytes.byteSize();
        if (length < lengthFor(0)) {
            throw new CorruptionException(file, footerOffset, "footer length " + length
                    + " is shorter than the " + lengthFor(0) + "-byte minimum");
        }
        long crcAt = length - FOOTER_CRC_BYTES;
        int stored = bytes.get(U32, crcAt);
        int computed = Crc32c.of(bytes, 0, crcAt);
        if (stored != computed) {
            throw new CorruptionException(file, footerOffset + crcAt, "footer checksum mismatch (stored "
                    + SegmentHeader.hex(stored) + ", computed " + SegmentHeader.hex(computed) + ")");
        }
        int version = bytes.get(U32, F_VERSION);
        if (version != FOOTER_VERSION) {
            throw new UnsupportedFormatException(file, "footer version " + Integer.toUnsignedString(version)
                    + " is not supported (this reader reads " + FOOTER_VERSION + ")");
        }
        long regionCount = Integer.toUnsignedLong(bytes.get(U32, F_REGION_COUNT));
        if (lengthFor(regionCount) != length) {
            throw new CorruptionException(file, footerOffset + F_REGION_COUNT, "footer region_count "
                    + regionCount + " does not fit the footer length " + length);
        }
        if (bytes.get(U32, F_RESERVED) != 0) {
            throw new CorruptionException(file, footerOffset + F_RESERVED, "footer reserved field is not zero");
        }
        List<RegionEntry> entries = new ArrayList<>((int) regionCount);
        long at = F_ENTRIES;
        for (long i = 0; i < regionCount; i++) {
            if (bytes.get(U8, at + E_RESERVED) != 0) {
                throw new CorruptionException(file, footerOffset + at + E_RESERVED,
                        "footer directory entry " + i + " reserved byte is not zero");
            }
            entries.add(new RegionEntry(
                    Short.toUnsignedInt(bytes.get(U16, at + E_KIND)),
                    Byte.toUnsignedInt(bytes.get(U8, at + E_ENCODING)),
                    bytes.get(U32, at + E_CRC),
                    bytes.get(U64, at + E_OFFSET),
                    bytes.get(U64, at + E_STORED_LENGTH),
                    bytes.get(U64, at + E_RAW_LENGTH),
                    bytes.get(U64, at + E_ELEMENT_COUNT)));
            at += ENTRY_BYTES;
        }
        return new Footer(version, bytes.get(U64, F_MIN_TIMESTAMP), bytes.get(U64, F_MAX_TIMESTAMP),
                bytes.get(U64, F_MIN_SEQUENCE), bytes.get(U64, F_MAX_SEQUENCE), bytes.get(U64, F_PUT_COUNT),
                bytes.get(U64, F_TOMBSTONE_COUNT), bytes.get(U64, F_FOREIGN_ID_COUNT),
                bytes.get(U32, F_FLAGS), entries);
    }
}
