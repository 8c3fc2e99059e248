package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.io.WritableFile;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Sequential output of a segment through one fixed buffer: values are encoded into the buffer,
 * which is appended to the file whenever it fills, and the CRC32C of the region being written is
 * updated from the buffer just before each append. Memory use is the buffer, whatever the size
 * of the segment. Not thread-safe; reused across segments by one writer.
 */
final class RegionOutput {
    private final byte[] buffer;
    private final MemorySegment view;
    private final CRC32C crc = new CRC32C();
    private WritableFile file;
    private int used;
    private long flushed;
    private boolean inRegion;
    private int crcFrom;
    private long regionStart;

    /** A finished region: where it starts, how long it is, its CRC32C. */
    record Written(long offset, long length, int crc) {
    }

    RegionOutput(int capacity) {
        this.buffer = new byte[capacity];
        this.view = MemorySegment.ofArray(buffer);
    }

    int capacity() {
        return buffer.length;
    }

    void start(WritableFile target) {
        this.file = target;
        this.used = 0;
        this.flushed = 0;
        this.inRegion = false;
    }

    /** Bytes produced so far: the file offset of the next byte. */
    long position() {
        return flushed + used;
    }

    /** Zero bytes up to the next 64-byte boundary (outside any region). */
    void align() throws IOException {
        long pad = alignUp(position()) - position();
        reserve((int) pad);
    }

    void beginRegion() throws IOException {
        align();
        crc.reset();
        crcFrom = used;
        regionStart = position();
        inRegion = true;
    }

    Written endRegion() {
        crc.update(buffer, crcFrom, used - crcFrom);
        inRegion = false;
        return new Written(regionStart, position() - regionStart, (int) crc.getValue());
    }

    /**
     * Makes room for {@code n} bytes (n <= capacity), zeroes them, and returns their offset in
     * {@link #buffer()} so that the caller can encode into them directly.
     */
    int reserve(int n) throws IOException {
        int at = reserveUnzeroed(n);
        Arrays.fill(buffer, at, at + n, (byte) 0);
        return at;
    }

    /**
     * As {@link #reserve} but the bytes keep whatever the buffer held: for a caller that
     * writes every one of them (an embedding and its padding, a column), so they are written once.
     */
    int reserveUnzeroed(int n) throws IOException {
        if (n > buffer.length - used) {
            flush();
        }
        int at = used;
        used += n;
        return at;
    }

    MemorySegment buffer() {
        return view;
    }

    /** Encodes the values of rows {@code [from, to)}, {@code width} bytes each, from {@code at} on. */
    @FunctionalInterface
    interface ColumnEncoder {
        void encode(MemorySegment buffer, int at, int from, int to);
    }

    /**
     * Writes a column of {@code rows} fixed-width values, each written whole by {@code encoder}
     * (so the bytes are not zeroed first), as many rows at a time as the buffer has room for.
     * Each column's loop is then a small method of its own with no flush inside. C2 recompiles
     * a writer loop when the profile it was compiled with stops holding (a flush's rows, then a
     * compaction's); when all the columns were one method, each recompile took 250–360 ms, eight
     * times in a process that ran four compactions, on a machine with two cores.
     */
    void putColumn(int rows, int width, ColumnEncoder encoder) throws IOException {
        if (width > buffer.length) {
            throw new IllegalArgumentException("a value of " + width + " bytes does not fit a "
                    + buffer.length + "-byte output buffer");
        }
        int row = 0;
        while (row < rows) {
            int room = (buffer.length - used) / width;
            if (room == 0) {
                flush();
                continue;
            }
            int to = Math.min(rows, row + room);
            encoder.encode(view, reserveUnzeroed((to - row) * width), row, to);
            row = to;
        }
    }

    void putU32(int v) throws IOException {
        view.set(U32, reserve(4), v);
    }

    void putBytes(byte[] src) throws IOException {
        int done = 0;
        while (done < src.length) {
            if (used == buffer.length) {
                flush();
            }
            int n = Math.min(src.length - done, buffer.length - used);
            System.arraycopy(src, done, buffer, used, n);
            used += n;
            done += n;
        }
    }

    /** Encodes one CSR or CSC entry at {@code at}, its padding zeroed. */
    static void encodeEdgeEntry(MemorySegment buffer, int at, int target, byte relation, float weight) {
        buffer.set(U32, at + EDGE_TARGET, target);
        buffer.set(U8, at + EDGE_RELATION, relation);
        buffer.set(F32, at + EDGE_WEIGHT, weight);
        for (int pad = EDGE_PADDING; pad < EDGE_PADDING + EDGE_PADDING_BYTES; pad++) {
            buffer.set(U8, at + pad, (byte) 0);
        }
    }

    void flush() throws IOException {
        if (inRegion) {
            crc.update(buffer, crcFrom, used - crcFrom);
            crcFrom = 0;
        }
        file.append(ByteBuffer.wrap(buffer, 0, used));
        flushed += used;
        used = 0;
    }
}
