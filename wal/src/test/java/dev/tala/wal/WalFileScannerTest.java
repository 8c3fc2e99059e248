package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The search for a reused file's last non-zero byte, against a byte-by-byte search. */
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
}
