package dev.tala.core.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The chunked searches for non-zero bytes, against byte-by-byte ones. */
class ZeroRunsTest {
    /**
     * Up to 3 MiB (several 1 MiB chunks), with non-zero bytes placed anywhere, chunk edges
     * included, or none at all.
     */
    private static byte[] sparse(int size, int nonZeroBytes, long seed) {
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
        return bytes;
    }

    @Property(tries = 200)
    void theLastNonZeroByteIsFoundWhereverItIs(@ForAll @IntRange(min = 0, max = 3 << 20) int size,
                                               @ForAll @IntRange(min = 0, max = 4) int nonZeroBytes,
                                               @ForAll long seed) {
        byte[] bytes = sparse(size, nonZeroBytes, seed);
        long expected = -1;
        for (int i = bytes.length - 1; i >= 0 && expected < 0; i--) {
            expected = bytes[i] != 0 ? i : -1;
        }
        assertEquals(expected, ZeroRuns.lastNonZero(MemorySegment.ofArray(bytes)));
    }

    @Property(tries = 200)
    void theNextNonZeroByteAndWindowAreFoundFromAnyOffset(@ForAll @IntRange(min = 1, max = 3 << 20) int size,
                                                           @ForAll @IntRange(min = 0, max = 4) int nonZeroBytes,
                                                           @ForAll @IntRange(min = 1, max = 32) int window,
                                                           @ForAll long seed) {
        byte[] bytes = sparse(size, nonZeroBytes, seed);
        MemorySegment segment = MemorySegment.ofArray(bytes);
        long from = new Random(seed ^ 1).nextInt(size);
        long next = from;
        while (next < size && bytes[(int) next] == 0) {
            next++;
        }
        assertEquals(next, ZeroRuns.nextNonZero(segment, from));
        long firstWindow = from;
        if (next < size) {
            while (!(firstWindow <= next && next < firstWindow + window)) {
                firstWindow++;
            }
        } else {
            firstWindow = Math.max(from, size - window + 1); // past every window that fits
        }
        assertEquals(firstWindow, ZeroRuns.firstNonZeroWindow(segment, from, window));
    }

    /** What lets the searches step over zeros: neither format's header checksum is zero over zeros. */
    @Test
    void aHeaderOfZerosNeverPassesItsChecksum() {
        assertNotEquals(0, Crc32c.of(new byte[8]), "MANIFEST edit header: CRC32C of its first 8 bytes");
        assertNotEquals(0, Crc32c.of(new byte[17]), "WAL record header: CRC32C of its first 17 bytes");
    }
}
