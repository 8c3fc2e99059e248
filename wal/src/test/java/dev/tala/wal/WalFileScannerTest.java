package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.checksum.Crc32c;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The search for a reused file's last non-zero byte, against a byte-by-byte search; the search
 * for the next intact record in a file built to make it slow.
 */
class WalFileScannerTest {
    private static long bruteForce(byte[] bytes) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] != 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Files up to 3 MiB (several 1 MiB chunks), with non-zero bytes placed anywhere, chunk
     * edges included, or none at all.
     */
    @Property(tries = 200)
    void theLastNonZeroByteIsFoundWhereverItIs(@ForAll @IntRange(min = 0, max = 3 << 20) int size,
                                               @ForAll @IntRange(min = 0, max = 4) int nonZeroBytes,
                                               @ForAll long seed) {
        Random random = new Random(seed);
        byte[] bytes = new byte[size];
        for (int i = 0; i < nonZeroBytes && size > 0; i++) {
            int at = switch (random.nextInt(4)) {
                case 0 -> Math.min(size - 1, (1 << 20) * random.nextInt(4)); // a chunk's first byte
                case 1 -> Math.max(0, Math.min(size - 1, (1 << 20) * (1 + random.nextInt(3)) - 1)); // its last
                case 2 -> size - 1 - random.nextInt(Math.min(size, 16)); // near the end
                default -> random.nextInt(size);
            };
            bytes[at] = (byte) (1 + random.nextInt(255));
        }
        assertEquals(bruteForce(bytes), WalFileScanner.lastNonZeroByte(MemorySegment.ofArray(bytes)));
    }

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
}
