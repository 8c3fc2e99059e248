package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.UnsupportedFormatException;
import dev.tala.core.model.IntentId;
import dev.tala.segment.format.RegionKind;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged files are always refused with CorruptionException or UnsupportedFormatException, by
 * open() or at the latest by verify(); reading a damaged file never fails any other way.
 */
class CorruptionTest {
    @TempDir
    Path dir;
    private byte[] original;
    private long footerOffset;
    private Path scratch;

    @BeforeEach
    void write() throws IOException {
        Path file = dir.resolve("small.tbf");
        SegmentFixtures.write(file, SegmentWriteOptions.of(77, 1234, 8, EmbeddingType.F32), SegmentFixtures.smallWithEdges());
        original = Files.readAllBytes(file);
        footerOffset = MemorySegment.ofArray(original).get(U64, H_FOOTER_OFFSET);
        scratch = dir.resolve("damaged.tbf");
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            reader.verify();
            assertEquals(5, reader.rowCount());
            assertTrue(reader.edgeCount() > 0);
        }
    }

    private static byte[] flip(byte[] bytes, long bit) {
        byte[] copy = bytes.clone();
        copy[(int) (bit / 8)] ^= (byte) (1 << (bit % 8));
        return copy;
    }

    /** Opens and verifies; true if refused the right way, fails the test on any other exception. */
    private boolean refused(byte[] bytes, String label) throws IOException {
        Files.write(scratch, bytes);
        SegmentReader reader;
        try {
            reader = SegmentFixtures.open(scratch);
        } catch (CorruptionException | UnsupportedFormatException expected) {
            return true;
        } catch (RuntimeException | Error e) {
            throw new AssertionError(label + ": open threw " + e, e);
        }
        try (reader) {
            exercise(reader);
            reader.verify();
            return false;
        } catch (CorruptionException | UnsupportedFormatException expected) {
            return true;
        } catch (RuntimeException | Error e) {
            throw new AssertionError(label + ": reading threw " + e, e);
        }
    }

    /** Every accessor over every row: damaged data may give CorruptionException, nothing else. */
    static void exercise(SegmentReader reader) {
        for (int row = 0; row < reader.rowCount(); row++) {
            try {
                reader.version(row);
                reader.embedding(row);
                IntentId id = reader.id(row);
                reader.mightContain(id);
                reader.find(id);
                reader.edgesTo(id);
                reader.outDegree(row);
            } catch (CorruptionException expected) {
                // what damaged data is allowed to do
            }
        }
        for (int i = 0; i < reader.foreignIdCount(); i++) {
            try {
                reader.edgesTo(reader.foreignId(i));
            } catch (CorruptionException expected) {
                // ditto
            }
        }
        reader.verifyAll();
    }

    @Test
    void everyHeaderBitFlipIsRefused() throws IOException {
        for (long bit = 0; bit < HEADER_BYTES * 8L; bit++) {
            assertTrue(refused(flip(original, bit), "header bit " + bit), "header bit " + bit + " went unnoticed");
        }
    }

    @Test
    void everyFooterAndTrailerBitFlipIsRefused() throws IOException {
        for (long bit = footerOffset * 8; bit < original.length * 8L; bit++) {
            assertTrue(refused(flip(original, bit), "footer bit " + bit), "footer/trailer bit " + bit + " went unnoticed");
        }
    }

    @Test
    void randomBitFlipsInRegionsAndPaddingAreCaught() throws IOException {
        Random r = new Random(20261122);
        for (int i = 0; i < 400; i++) {
            long bit = HEADER_BYTES * 8L + (long) (r.nextDouble() * (footerOffset - HEADER_BYTES) * 8);
            assertTrue(refused(flip(original, bit), "bit " + bit), "bit " + bit + " (byte " + bit / 8 + ") went unnoticed");
        }
    }

    @Test
    void everyTruncationIsRefusedAtOpen() throws IOException {
        for (int length = 0; length < original.length; length++) {
            Files.write(scratch, Arrays.copyOf(original, length));
            int len = length;
            CorruptionException e = assertThrows(CorruptionException.class, () -> SegmentFixtures.open(scratch),
                    "truncated to " + len);
            assertTrue(e.getMessage().contains(scratch.toString()));
        }
    }

    @Test
    void randomGarbageIsRefused() throws IOException {
        Random r = new Random(5);
        for (int i = 0; i < 600; i++) {
            byte[] junk = new byte[r.nextInt(i < 300 ? 600 : 5000)];
            r.nextBytes(junk);
            if (i % 3 != 0 && junk.length >= HEADER_BYTES) {
                // Get past the cheap checks: right magic and major, sometimes a valid header CRC.
                System.arraycopy(MAGIC, 0, junk, 0, 4);
                junk[H_VERSION_MAJOR] = 1;
                junk[H_VERSION_MAJOR + 1] = 0;
                if (i % 3 == 2) {
                    Arrays.fill(junk, H_RESERVED, HEADER_BYTES, (byte) 0);
                    junk[H_EMBEDDING_DTYPE] = (byte) r.nextInt(4);
                    junk[H_COMPRESSION] = (byte) (r.nextBoolean() ? 0 : 2);
                    junk[H_FLAGS] &= ~(FLAG_IS_ENCRYPTED | FLAG_IS_PARTIAL);
                    MemorySegment.ofArray(junk).set(U32, H_CHECKSUM, Crc32c.of(junk, 0, H_CHECKSUM));
                }
            }
            assertTrue(refused(junk, "garbage " + i), "garbage file " + i + " was accepted");
        }
    }

    @Test
    void structurallyFuzzedFootersNeverEscapeAsOtherExceptions() throws IOException {
        Random r = new Random(11);
        int footerLength = original.length - TRAILER_BYTES - (int) footerOffset;
        int accepted = 0;
        for (int i = 0; i < 1500; i++) {
            byte[] bytes = original.clone();
            MemorySegment s = MemorySegment.ofArray(bytes);
            int changes = 1 + r.nextInt(3);
            for (int c = 0; c < changes; c++) {
                // Rewrite one field of the footer or the header with a nearby or wild value, then fix the CRCs.
                boolean inFooter = r.nextInt(4) != 0;
                long base = inFooter ? footerOffset : 0;
                int span = inFooter ? footerLength - FOOTER_CRC_BYTES : H_CHECKSUM;
                long at = base + (r.nextInt(span / 4) * 4L);
                int old = s.get(U32, at);
                int value = switch (r.nextInt(4)) {
                    case 0 -> old + r.nextInt(129) - 64;
                    case 1 -> r.nextInt();
                    case 2 -> old ^ (1 << r.nextInt(32));
                    default -> r.nextBoolean() ? 0 : -1;
                };
                s.set(U32, at, value);
            }
            s.set(U32, footerOffset + footerLength - FOOTER_CRC_BYTES,
                    Crc32c.of(bytes, (int) footerOffset, footerLength - FOOTER_CRC_BYTES));
            s.set(U32, H_CHECKSUM, Crc32c.of(bytes, 0, H_CHECKSUM));
            if (!refused(bytes, "fuzzed " + i)) {
                accepted++;
            }
        }
        System.out.println("structurally fuzzed files that passed open and verify: " + accepted + " of 1500");
        // Changing a field and fixing the checksums can be harmless (a minor version, a created_at):
        // such files may pass, but most must not.
        assertTrue(accepted < 500, accepted + " fuzzed files passed verify");
    }

    /**
     * A directory whose string table runs one byte into the bloom filter is refused at open,
     * even with every checksum fixed: regions are 64-aligned, so only a length can make two meet.
     */
    @Test
    void regionsOverlappingByOneByteAreRefusedAtOpen() throws IOException {
        TbfEdit edit = new TbfEdit(original);
        long entry = edit.entryAt(RegionKind.STRING_TABLE);
        long length = edit.offset(RegionKind.BLOOM) + 1 - edit.offset(RegionKind.STRING_TABLE);
        edit.s.set(U64, entry + E_STORED_LENGTH, length);
        edit.s.set(U64, entry + E_RAW_LENGTH, length);
        edit.fixRegion(RegionKind.STRING_TABLE);
        Files.write(scratch, edit.b);
        CorruptionException e = assertThrows(CorruptionException.class, () -> SegmentFixtures.open(scratch));
        assertTrue(e.getMessage().contains("overlaps"), e.getMessage());
    }

    /** A region offset on a 32-byte boundary is refused as misaligned by the header itself. */
    @Test
    void aHeaderOffsetThatIsOnly32AlignedIsRefused() throws IOException {
        long bloom = MemorySegment.ofArray(original).get(U64, H_BLOOM_OFFSET);
        Files.write(scratch, Crafting.patchHeader(original, h -> h.set(U64, H_BLOOM_OFFSET, bloom + 32)));
        CorruptionException e = assertThrows(CorruptionException.class, () -> SegmentFixtures.open(scratch));
        assertEquals(H_BLOOM_OFFSET, e.offset());
        assertTrue(e.getMessage().contains("64-aligned"), e.getMessage());
    }

    /** An embed_slot equal to the put count (one past the last vector) is damage, not an index error. */
    @Test
    void anEmbeddingSlotOnePastTheLastVectorIsCorruption() throws IOException {
        TbfEdit edit = new TbfEdit(original);
        edit.s.set(U32, edit.offset(RegionKind.EMBED_SLOT), 4); // row 0 is a put; 4 puts hold slots 0..3
        edit.fixRegion(RegionKind.EMBED_SLOT);
        Files.write(scratch, edit.b);
        try (SegmentReader reader = SegmentFixtures.open(scratch)) {
            assertEquals(4, reader.putCount());
            assertThrows(CorruptionException.class, () -> reader.embedding(0));
            assertThrows(CorruptionException.class, () -> reader.embeddingAsFloats(0));
        }
    }

    @Test
    void theDamageIsLocated() throws IOException {
        byte[] bytes = flip(original, 8L * (footerOffset - 1));
        Files.write(scratch, bytes);
        try (SegmentReader reader = SegmentFixtures.open(scratch)) {
            CorruptionException e = assertThrows(CorruptionException.class, reader::verify);
            assertTrue(e.offset() < footerOffset, e.getMessage());
            assertTrue(e.getMessage().startsWith(scratch + " at offset "), e.getMessage());
        }
        CorruptionException header = assertThrows(CorruptionException.class,
                () -> { Files.write(scratch, flip(original, 9 * 8)); SegmentFixtures.open(scratch); });
        assertEquals("header checksum mismatch", header.what().substring(0, "header checksum mismatch".length()));
        if (header.offset() != H_CHECKSUM) {
            fail("header damage should be reported at the checksum field, got " + header.offset());
        }
    }
}
