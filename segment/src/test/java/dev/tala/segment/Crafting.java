package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.checksum.Crc32c;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/** Builds deliberately altered but self-consistent segment files, for compatibility and policy tests. */
final class Crafting {
    private Crafting() {
    }

    /** A copy of {@code file} with its header patched and the header CRC recomputed. */
    static byte[] patchHeader(byte[] file, Consumer<MemorySegment> patch) {
        byte[] copy = file.clone();
        MemorySegment s = MemorySegment.ofArray(copy);
        patch.accept(s);
        s.set(U32, H_CHECKSUM, Crc32c.of(copy, 0, H_CHECKSUM));
        return copy;
    }

    static Footer footerOf(byte[] file) {
        MemorySegment s = MemorySegment.ofArray(file);
        long footerOffset = s.get(U64, H_FOOTER_OFFSET);
        long footerLength = Integer.toUnsignedLong(s.get(U32, file.length - TRAILER_BYTES));
        return Footer.decode(s.asSlice(footerOffset, footerLength), footerOffset, "crafted");
    }

    /**
     * {@code file} as a newer minor version would write it: a region of an unknown kind inserted
     * before the footer, the footer directory listing it, header minor version 1.
     */
    static byte[] withUnknownRegion(byte[] file, int kind, byte[] content) {
        MemorySegment s = MemorySegment.ofArray(file);
        long footerOffset = s.get(U64, H_FOOTER_OFFSET);
        Footer footer = footerOf(file);
        List<RegionEntry> entries = new ArrayList<>(footer.entries());
        entries.add(new RegionEntry(kind, ENCODING_RAW, Crc32c.of(content), footerOffset, content.length,
                content.length, content.length));
        Footer extended = new Footer(footer.footerVersion(), footer.minTimestamp(), footer.maxTimestamp(),
                footer.minSequence(), footer.maxSequence(), footer.putCount(), footer.tombstoneCount(),
                footer.foreignIdCount(), footer.footerFlags(), entries);
        long newFooterOffset = alignUp(footerOffset + content.length);
        byte[] footerBytes = extended.encode();
        byte[] out = Arrays.copyOf(file, (int) (newFooterOffset + footerBytes.length + TRAILER_BYTES));
        Arrays.fill(out, (int) footerOffset, out.length, (byte) 0);
        System.arraycopy(content, 0, out, (int) footerOffset, content.length);
        System.arraycopy(footerBytes, 0, out, (int) newFooterOffset, footerBytes.length);
        MemorySegment o = MemorySegment.ofArray(out);
        o.set(U32, newFooterOffset + footerBytes.length, footerBytes.length);
        MemorySegment.copy(MAGIC, 0, o, U8, newFooterOffset + footerBytes.length + 4, 4);
        return patchHeader(out, h -> {
            h.set(U64, H_FOOTER_OFFSET, newFooterOffset);
            h.set(U16, H_VERSION_MINOR, (short) 1);
        });
    }
}
