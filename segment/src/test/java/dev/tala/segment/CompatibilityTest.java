package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.UnsupportedFormatException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.IntentVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Versioning rules: any minor and unknown region kinds are readable; other majors, encryption and lz4 are not. */
class CompatibilityTest {
    @TempDir
    Path dir;
    private byte[] original;
    private List<IntentVersion> versions;

    @BeforeEach
    void write() throws IOException {
        versions = SegmentFixtures.smallWithEdges();
        Path file = dir.resolve("base.tbf");
        SegmentFixtures.write(file, SegmentWriteOptions.of(3, 4, 8, EmbeddingType.F32), versions);
        original = Files.readAllBytes(file);
    }

    private Path save(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    @Test
    void aNewerMinorWithAnUnknownRegionIsReadable() throws IOException {
        byte[] content = "a region from the future".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Path file = save("minor.tbf", Crafting.withUnknownRegion(original, 4000, content));
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            assertEquals(1, reader.header().versionMinor());
            reader.verify();
            for (int row = 0; row < versions.size(); row++) {
                assertEquals(versions.get(row), reader.version(row));
            }
            assertTrue(reader.directory().entriesByOffset().stream().anyMatch(e -> e.kind() == 4000 && e.knownKind() == null));
        }
        SegmentInfo info = SegmentReader.readSummary(LocalFileLayer.INSTANCE, file);
        assertEquals(19, info.regions().size());
    }

    @Test
    void aDamagedUnknownRegionIsCaughtByVerify() throws IOException {
        byte[] bytes = Crafting.withUnknownRegion(original, 4000, new byte[100]);
        long at = Crafting.footerOf(bytes).entries().getLast().offset();
        bytes[(int) at + 50] = 1;
        try (SegmentReader reader = SegmentFixtures.open(save("minor-bad.tbf", bytes))) {
            CorruptionException e = assertThrows(CorruptionException.class, reader::verify);
            assertEquals(at, e.offset());
            assertTrue(e.what().contains("4000 (unknown)"), e.what());
        }
    }

    @Test
    void anotherMajorVersionIsUnsupported() throws IOException {
        Path file = save("major.tbf", Crafting.patchHeader(original, h -> h.set(U16, H_VERSION_MAJOR, (short) 2)));
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> SegmentFixtures.open(file));
        assertTrue(e.getMessage().contains("version 2.0"), e.getMessage());
        assertThrows(UnsupportedFormatException.class, () -> SegmentReader.readHeader(LocalFileLayer.INSTANCE, file));
    }

    @Test
    void encryptedSegmentsAreRefusedClearly() throws IOException {
        Path file = save("enc.tbf", Crafting.patchHeader(original,
                h -> h.set(U16, H_FLAGS, (short) (h.get(U16, H_FLAGS) | FLAG_IS_ENCRYPTED))));
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> SegmentFixtures.open(file));
        assertTrue(e.getMessage().contains("encrypted segments are not supported"), e.getMessage());
        assertTrue(SegmentReader.readHeader(LocalFileLayer.INSTANCE, file).isEncrypted());
    }

    @Test
    void lz4IsUnsupportedAndUnknownCodesAreCorrupt() throws IOException {
        Path lz4 = save("lz4.tbf", Crafting.patchHeader(original, h -> h.set(U8, H_COMPRESSION, (byte) 1)));
        assertThrows(UnsupportedFormatException.class, () -> SegmentFixtures.open(lz4));
        Path unknown = save("c7.tbf", Crafting.patchHeader(original, h -> h.set(U8, H_COMPRESSION, (byte) 7)));
        CorruptionException e = assertThrows(CorruptionException.class, () -> SegmentFixtures.open(unknown));
        assertEquals(H_COMPRESSION, e.offset());
    }

    @Test
    void headerFieldsThatDisagreeWithTheFooterAreCorrupt() throws IOException {
        Path moved = save("moved.tbf", Crafting.patchHeader(original,
                h -> h.set(U64, H_BLOOM_OFFSET, h.get(U64, H_BLOOM_OFFSET) + 64)));
        CorruptionException e = assertThrows(CorruptionException.class, () -> SegmentFixtures.open(moved));
        assertEquals(H_BLOOM_OFFSET, e.offset());
        Path count = save("count.tbf", Crafting.patchHeader(original, h -> h.set(U64, H_NODE_COUNT, 6L)));
        assertThrows(CorruptionException.class, () -> SegmentFixtures.open(count));
        Path reserved = save("reserved.tbf", Crafting.patchHeader(original, h -> h.set(U8, 120, (byte) 1)));
        CorruptionException r = assertThrows(CorruptionException.class, () -> SegmentFixtures.open(reserved));
        assertEquals(120, r.offset());
    }
}
