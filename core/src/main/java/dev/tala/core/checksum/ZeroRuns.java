package dev.tala.core.checksum;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Finding the non-zero bytes of a file that may be mostly zeros: a reused WAL file (zero-filled
 * before reuse), a preallocated tail, or a sparse file built to make a search slow. Whole chunks
 * are compared with {@link MemorySegment#mismatch}, which is vectorized.
 *
 * <p>The searches for an intact record or edit after damage try a header at every offset, and
 * neither format's header can be all zeros (its checksum over zero bytes is not zero), so a run
 * of zeros is stepped over rather than tried byte by byte: one stray byte at the end of a
 * gigabyte of zeros made such a search take half a minute.
 */
public final class ZeroRuns {
    private static final MemorySegment ZEROS = MemorySegment.ofArray(new byte[1 << 20]).asReadOnly();

    private ZeroRuns() {
    }

    /** The offset of the first non-zero byte at or after {@code from}, or the size when there is none. */
    public static long nextNonZero(MemorySegment bytes, long from) {
        long size = bytes.byteSize();
        for (long start = from; start < size; start += ZEROS.byteSize()) {
            long end = Math.min(size, start + ZEROS.byteSize());
            long mismatch = MemorySegment.mismatch(bytes, start, end, ZEROS, 0, end - start);
            if (mismatch >= 0) {
                return start + mismatch;
            }
        }
        return size;
    }

    /**
     * The first offset at or after {@code at} where a header of {@code headerBytes} would hold a
     * non-zero byte: {@code at} itself unless the window there is all zeros, and when no
     * non-zero byte follows, an offset past every window that fits in the file. Cheap when the
     * window at {@code at} is not all zeros (two bytes looked at, almost always).
     */
    public static long firstNonZeroWindow(MemorySegment bytes, long at, int headerBytes) {
        long size = bytes.byteSize();
        if (at >= size || bytes.get(ValueLayout.JAVA_BYTE, at) != 0
                || at + headerBytes <= size && bytes.get(ValueLayout.JAVA_BYTE, at + headerBytes - 1) != 0) {
            return at;
        }
        return Math.max(at, nextNonZero(bytes, at) - headerBytes + 1);
    }

    /**
     * The offset of the last non-zero byte of {@code bytes}, or -1 if all are zero; only the
     * chunk that holds the answer is searched from its end.
     */
    public static long lastNonZero(MemorySegment bytes) {
        long end = bytes.byteSize();
        while (end > 0) {
            long start = Math.max(0, end - ZEROS.byteSize());
            if (MemorySegment.mismatch(bytes, start, end, ZEROS, 0, end - start) < 0) {
                end = start;
                continue;
            }
            long at = end;
            while (at - start >= Long.BYTES && bytes.get(ValueLayout.JAVA_LONG_UNALIGNED, at - Long.BYTES) == 0) {
                at -= Long.BYTES;
            }
            while (bytes.get(ValueLayout.JAVA_BYTE, at - 1) == 0) {
                at--;
            }
            return at - 1;
        }
        return -1;
    }
}
