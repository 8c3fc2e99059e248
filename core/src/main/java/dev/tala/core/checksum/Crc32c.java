package dev.tala.core.checksum;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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

    /** How much of a native (mapped) segment is copied to the heap at a time to be checksummed. */
    private static final int COPY_CHUNK = 64 * 1024;

    /**
     * Checksums {@code length} bytes of {@code segment} starting at {@code offset}.
     *
     * <p>A native segment is usually a file mapping, and a mapped page the file system cannot
     * supply (a hole in a sparse file on a full tmpfs, an I/O error) raises SIGBUS. The JDK turns
     * that into an {@link InternalError} only for its guarded copies and accesses; the CRC32C
     * intrinsic over a direct buffer is not guarded, and the JVM dies. So native bytes are copied
     * to the heap in chunks first (a guarded copy) and checksummed there.
     *
     * @throws UncheckedIOException if a page of the mapping could not be read
     */
    public static int of(MemorySegment segment, long offset, long length) {
        CRC32C crc = new CRC32C();
        if (!segment.isNative()) {
            long done = 0;
            while (done < length) {
                long n = Math.min(CHUNK, length - done);
                crc.update(segment.asSlice(offset + done, n).asByteBuffer());
                done += n;
            }
            return (int) crc.getValue();
        }
        byte[] chunk = new byte[(int) Math.min(COPY_CHUNK, Math.max(0, length))];
        long done = 0;
        while (done < length) {
            int n = (int) Math.min(chunk.length, length - done);
            try {
                MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, offset + done, chunk, 0, n);
            } catch (InternalError e) {
                throw new UncheckedIOException(new IOException("a mapped page at offset "
                        + (offset + done) + " could not be read (a full tmpfs cannot supply a page of a sparse"
                        + " file, or an I/O error): " + e.getMessage(), e));
            }
            crc.update(chunk, 0, n);
            done += n;
        }
        return (int) crc.getValue();
    }
}
