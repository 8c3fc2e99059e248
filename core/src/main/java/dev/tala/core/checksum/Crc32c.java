package dev.tala.core.checksum;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/** CRC32C (Castagnoli), the checksum of every TalaDB file. Backed by the JDK's intrinsic. */
public final class Crc32c {
    private static final long CHUNK = 1L << 30;

    private Crc32c() {
    }

    public static int of(byte[] bytes) {
        return of(bytes, 0, bytes.length);
    }

    public static int of(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /** Checksums the remaining bytes of {@code buffer} without moving its position. */
    public static int of(ByteBuffer buffer) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.duplicate());
        return (int) crc.getValue();
    }

    /** Checksums {@code length} bytes of {@code segment} starting at {@code offset}. */
    public static int of(MemorySegment segment, long offset, long length) {
        CRC32C crc = new CRC32C();
        long done = 0;
        while (done < length) {
            long n = Math.min(CHUNK, length - done);
            crc.update(segment.asSlice(offset + done, n).asByteBuffer());
            done += n;
        }
        return (int) crc.getValue();
    }
}
