package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.checksum.Crc32c;
import dev.tala.segment.format.RegionKind;
import java.lang.foreign.MemorySegment;

/** Edits a TBF file in memory and recomputes the checksums over the edit. */
final class TbfEdit {
    final byte[] b;
    final MemorySegment s;
    final long footerOffset;
    final int footerLength;

    TbfEdit(byte[] bytes) {
        b = bytes.clone();
        s = MemorySegment.ofArray(b);
        footerOffset = s.get(U64, H_FOOTER_OFFSET);
        footerLength = b.length - TRAILER_BYTES - (int) footerOffset;
    }

    int regionCount() {
        return s.get(U32, footerOffset + F_REGION_COUNT);
    }

    /** File offset of the directory entry of {@code kind}. */
    long entryAt(RegionKind kind) {
        for (int i = 0; i < regionCount(); i++) {
            long at = footerOffset + F_ENTRIES + (long) i * ENTRY_BYTES;
            if (Short.toUnsignedInt(s.get(U16, at + E_KIND)) == kind.code()) {
                return at;
            }
        }
        throw new IllegalArgumentException("no " + kind);
    }

    long offset(RegionKind kind) {
        return s.get(U64, entryAt(kind) + E_OFFSET);
    }

    long length(RegionKind kind) {
        return s.get(U64, entryAt(kind) + E_STORED_LENGTH);
    }

    /** Recomputes the region CRC in its directory entry, then the footer CRC. */
    TbfEdit fixRegion(RegionKind kind) {
        s.set(U32, entryAt(kind) + E_CRC, Crc32c.of(b, (int) offset(kind), (int) length(kind)));
        return fixFooter();
    }

    TbfEdit fixFooter() {
        s.set(U32, footerOffset + footerLength - FOOTER_CRC_BYTES,
                Crc32c.of(b, (int) footerOffset, footerLength - FOOTER_CRC_BYTES));
        return this;
    }

    TbfEdit fixHeader() {
        s.set(U32, H_CHECKSUM, Crc32c.of(b, 0, H_CHECKSUM));
        return this;
    }
}
