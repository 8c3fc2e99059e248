package dev.tala.segment.docformat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.util.zip.CRC32C;

/**
 * A TBF decoder written only from docs/FORMAT.md, sharing no code with the segment module, so
 * that a writer and its reader agreeing on a wrong layout still shows up as a failure here.
 */
final class DocTbf {
    static final int HEADER = 128;
    static final int FOOTER_FIXED = 72;
    static final int ENTRY = 40;

    final byte[] bytes;
    final ByteBuffer le;

    DocTbf(byte[] bytes) {
        this.bytes = bytes;
        this.le = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    static DocTbf read(Path file) throws IOException {
        return new DocTbf(Files.readAllBytes(file));
    }

    static long align64(long x) {
        return (x + 63) & ~63L;
    }

    static int crc32c(byte[] b, int from, int to) {
        CRC32C c = new CRC32C();
        c.update(b, from, to - from);
        return (int) c.getValue();
    }

    int u8(long at) {
        return bytes[(int) at] & 0xFF;
    }

    int u16(long at) {
        return le.getShort((int) at) & 0xFFFF;
    }

    int u32(long at) {
        return le.getInt((int) at);
    }

    long u64(long at) {
        return le.getLong((int) at);
    }

    float f32(long at) {
        return le.getFloat((int) at);
    }

    /** The 16 id bytes as the two big-endian longs of a UUID. */
    long idHigh(long at) {
        return ByteBuffer.wrap(bytes, (int) at, 8).order(ByteOrder.BIG_ENDIAN).getLong();
    }

    long idLow(long at) {
        return ByteBuffer.wrap(bytes, (int) at + 8, 8).order(ByteOrder.BIG_ENDIAN).getLong();
    }

    long footerOffset() {
        return u64(96);
    }

    int regionCount() {
        return u32(footerOffset() + 4);
    }

    long entry(int i) {
        return footerOffset() + FOOTER_FIXED + (long) ENTRY * i;
    }

    /** The directory entry's position for a kind, or -1. */
    long entryOfKind(int kind) {
        for (int i = 0; i < regionCount(); i++) {
            if (u16(entry(i)) == kind) {
                return entry(i);
            }
        }
        return -1;
    }

    long regionOffset(int kind) {
        return u64(entryOfKind(kind) + 8);
    }

    long storedLength(int kind) {
        return u64(entryOfKind(kind) + 16);
    }

    /** Recomputes the header CRC over [0, 104) after a test edits the header. */
    void resealHeader() {
        le.putInt(104, crc32c(bytes, 0, 104));
    }

    /** Recomputes the footer CRC after a test edits the footer. */
    void resealFooter() {
        int end = (int) (footerOffset() + FOOTER_FIXED + (long) ENTRY * regionCount());
        le.putInt(end, crc32c(bytes, (int) footerOffset(), end));
    }
}
