package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.tala.core.checksum.Crc32c;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The search for the next intact record in a file built to make it slow. */
class WalFileScannerTest {
    /**
     * A record header whose own checksum matches every 21 bytes, each claiming a payload to the
     * end of the file that never matches: checking each claim took time quadratic in the file's
     * size. The search gives up after a few file sizes' worth of claimed payload and says so,
     * while a few such headers are still searched past to the end.
     */
    @Test
    void recordHeadersThatPassTheirChecksumEverywhereEndTheSearchUndecided() {
        assertEquals(WalFileScanner.UNDECIDED, new WalFileScanner(MemorySegment.ofArray(fakeHeaders(4 << 20, 1 << 30)))
                .nextIntactRecordAfter(WalFormat.FILE_HEADER_BYTES));
        assertEquals(-1, new WalFileScanner(MemorySegment.ofArray(fakeHeaders(4 << 20, 3)))
                .nextIntactRecordAfter(WalFormat.FILE_HEADER_BYTES));
    }

    private static byte[] fakeHeaders(int size, int count) {
        byte[] b = new byte[size];
        ByteBuffer w = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int made = 0;
        for (int at = WalFormat.FILE_HEADER_BYTES; at + WalFormat.RECORD_HEADER_BYTES <= size && made < count;
                at += WalFormat.RECORD_HEADER_BYTES, made++) {
            w.putInt(at + WalFormat.LENGTH_OFFSET, size - at - WalFormat.RECORD_HEADER_BYTES);
            w.put(at + WalFormat.TYPE_OFFSET, WalFormat.TYPE_PUT);
            w.putInt(at + WalFormat.CRC_OFFSET, 0x12345678);
            w.putInt(at + WalFormat.HEADER_CRC_OFFSET, Crc32c.of(b, at, WalFormat.HEADER_CRC_OFFSET));
        }
        return b;
    }

    /**
     * Two GiB of zeros (a sparse file) with one stray byte at its end, after damage at the
     * start: the search for an intact record tried a header at every offset, about 27 s per
     * GiB; zeros are now stepped over, and it finds nothing in a fraction of that.
     */
    @Test
    void aSparseGapBeforeAStrayByteIsSteppedOver(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sparse.wal");
        long size = 2L << 30;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
            f.seek(size - 1);
            f.write('X');
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofShared()) {
            MemorySegment mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            long found = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> new WalFileScanner(mapped).nextIntactRecordAfter(WalFormat.FILE_HEADER_BYTES));
            assertEquals(-1, found);
        }
    }
}
