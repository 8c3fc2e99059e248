package dev.tala.segment.docformat;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.UnsupportedFormatException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentOpenOption;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentWriteOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What FORMAT.md promises a reader does with bytes a writer never produces. */
class TbfReaderClaimsTest {
    @TempDir
    Path dir;
    private WrittenSegment base;

    @BeforeEach
    void writeBase() throws IOException {
        base = WrittenSegment.write(dir, "base", SegmentWriteOptions.of(3, 1_700_000_000_000_000_000L, 6,
                EmbeddingType.F32), WrittenSegment.randomRows(11, 10, 6, 0.2, false, true));
    }

    private Path crafted(Consumer<DocTbf> edit) throws IOException {
        DocTbf copy = new DocTbf(base.file().bytes.clone());
        edit.accept(copy);
        Path p = dir.resolve("crafted-" + System.nanoTime() + ".tbf");
        Files.write(p, copy.bytes);
        return p;
    }

    private static SegmentReader open(Path p, SegmentOpenOption... options) throws IOException {
        return SegmentReader.open(LocalFileLayer.INSTANCE, p, options);
    }

    private static void opensAndVerifies(Path p) throws IOException {
        try (SegmentReader r = open(p)) {
            assertEquals(10, r.rowCount());
            r.verify();
        }
    }

    @Test
    void anotherMajorIsUnsupportedBeforeTheChecksumIsLookedAt() throws IOException {
        Path p = crafted(f -> {
            f.le.putShort(4, (short) 2);
            Arrays.fill(f.bytes, 8, 128, (byte) 0x5A);
        });
        assertThrows(UnsupportedFormatException.class, () -> open(p));
    }

    @Test
    void anyMinorIsReadable() throws IOException {
        opensAndVerifies(crafted(f -> {
            f.le.putShort(6, (short) 9);
            f.resealHeader();
        }));
    }

    @Test
    void headerFlagBits5To15AreIgnored() throws IOException {
        opensAndVerifies(crafted(f -> {
            f.le.putShort(46, (short) (f.u16(46) | 0xFFE0));
            f.resealHeader();
        }));
    }

    @Test
    void encryptedIsRefusedAsUnsupported() throws IOException {
        Path p = crafted(f -> {
            f.le.putShort(46, (short) (f.u16(46) | 0x08));
            f.resealHeader();
        });
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> open(p));
        assertTrue(e.getMessage().contains("encrypted segments are not supported"), e.getMessage());
        assertTrue(SegmentReader.readHeader(LocalFileLayer.INSTANCE, p).isEncrypted());
    }

    @Test
    void partialIsCorruptUnlessAllowed() throws IOException {
        Path p = crafted(f -> {
            f.le.putShort(46, (short) (f.u16(46) | 0x10));
            f.resealHeader();
        });
        assertThrows(CorruptionException.class, () -> open(p));
        try (SegmentReader r = open(p, SegmentOpenOption.ALLOW_PARTIAL)) {
            assertEquals(10, r.rowCount());
        }
        assertTrue(SegmentReader.readHeader(LocalFileLayer.INSTANCE, p).isPartial());
    }

    @Test
    void aNonZeroReservedHeaderByteIsRejected() throws IOException {
        for (int at : new int[] {108, 127}) {
            Path p = crafted(f -> f.bytes[at] = 1);
            assertThrows(CorruptionException.class, () -> open(p), "reserved byte " + at);
        }
    }

    @Test
    void footerFlagBits1To31AreIgnored() throws IOException {
        opensAndVerifies(crafted(f -> {
            long at = f.footerOffset() + 64;
            f.le.putInt((int) at, f.u32(at) | 0xFFFFFFFE);
            f.resealFooter();
        }));
    }

    @Test
    void aCscEntryWithoutItsFooterFlagIsRefused() throws IOException {
        Path p = crafted(f -> {
            long at = f.footerOffset() + 64;
            f.le.putInt((int) at, f.u32(at) & ~1);
            f.resealFooter();
        });
        assertThrows(CorruptionException.class, () -> open(p));
    }

    @Test
    void hasEmbeddingsThatDisagreesWithThePutCountIsRefused() throws IOException {
        Path p = crafted(f -> {
            f.le.putShort(46, (short) (f.u16(46) & ~0x02));
            f.resealHeader();
        });
        assertThrows(CorruptionException.class, () -> open(p));
    }

    @Test
    void anotherFooterVersionIsUnsupported() throws IOException {
        Path p = crafted(f -> {
            f.le.putInt((int) f.footerOffset(), 2);
            f.resealFooter();
        });
        assertThrows(UnsupportedFormatException.class, () -> open(p));
    }

    @Test
    void compressionLz4IsUnsupportedAndUnknownCodesAreCorrupt() throws IOException {
        Path lz4 = crafted(f -> {
            f.bytes[45] = 1;
            f.resealHeader();
        });
        assertThrows(UnsupportedFormatException.class, () -> open(lz4));
        Path unknown = crafted(f -> {
            f.bytes[45] = 3;
            f.resealHeader();
        });
        assertThrows(CorruptionException.class, () -> open(unknown));
    }

    @Test
    void dimensionOutsideOneTo65536IsRefused() throws IOException {
        for (int dim : new int[] {0, 65537}) {
            Path p = crafted(f -> {
                f.le.putInt(40, dim);
                f.resealHeader();
            });
            assertThrows(CorruptionException.class, () -> open(p), "dim " + dim);
        }
    }

    @Test
    void aFileShorterThan136BytesOrWithAWrongFooterLengthIsRefused() throws IOException {
        Path shortFile = dir.resolve("short.tbf");
        Files.write(shortFile, Arrays.copyOf(base.file().bytes, 135));
        assertThrows(CorruptionException.class, () -> open(shortFile));
        Path wrongLength = crafted(f -> {
            int at = f.bytes.length - 8;
            f.le.putInt(at, f.u32(at) + 64);
        });
        assertThrows(CorruptionException.class, () -> open(wrongLength));
    }

    @Test
    void nonZeroPaddingOpensButFailsVerify() throws IOException {
        // Ten rows make a 24-byte index, so the byte before the footer is padding.
        Path p = crafted(f -> f.bytes[(int) f.footerOffset() - 1] = 7);
        try (SegmentReader r = open(p)) {
            assertThrows(CorruptionException.class, r::verify);
        }
    }

    /** The base file with one more 64-byte region of an unknown kind between the index and the footer. */
    private Path withUnknownRegion(byte[] content, int storedCrc) throws IOException {
        DocTbf f = base.file();
        int fo = (int) f.footerOffset();
        int r = f.regionCount();
        int oldFooter = 72 + 40 * r;
        ByteBuffer out = ByteBuffer.allocate(fo + 64 + oldFooter + 40 + 4 + 8).order(ByteOrder.LITTLE_ENDIAN);
        out.put(f.bytes, 0, fo);
        out.put(content);
        int newFo = fo + 64;
        out.put(f.bytes, fo, oldFooter);
        out.putInt(newFo + 4, r + 1);
        out.position(newFo + oldFooter);
        out.putShort((short) 200).put((byte) 0).put((byte) 0).putInt(storedCrc).putLong(fo).putLong(64).putLong(64)
                .putLong(1);
        byte[] b = out.array();
        int crcAt = newFo + oldFooter + 40;
        out.putInt(crcAt, DocTbf.crc32c(b, newFo, crcAt));
        out.putInt(crcAt + 4, oldFooter + 40 + 4);
        out.put(crcAt + 8, new byte[] {0x54, 0x41, 0x4C, 0x42});
        out.putLong(96, newFo);
        out.putShort(6, (short) 1);
        out.putInt(104, DocTbf.crc32c(b, 0, 104));
        Path p = dir.resolve("unknown-kind-" + storedCrc + ".tbf");
        Files.write(p, b);
        return p;
    }

    @Test
    void anUnknownRegionKindIsSkippedAndItsCrcVerified() throws IOException {
        byte[] content = new byte[64];
        Arrays.fill(content, (byte) 0x33);
        opensAndVerifies(withUnknownRegion(content, DocTbf.crc32c(content, 0, 64)));
        Path damaged = withUnknownRegion(content, DocTbf.crc32c(content, 0, 64) ^ 1);
        try (SegmentReader r = assertDoesNotThrow(() -> open(damaged))) {
            assertThrows(CorruptionException.class, r::verify);
            assertFalse(r.verifyAll().isEmpty());
        }
    }
}
