package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.SegmentFixtures.Shape;
import dev.tala.segment.format.RegionKind;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writer input validation, determinism, layout invariants and the string-table compression rule. */
class SegmentWriterTest {
    @TempDir
    Path dir;

    private static IntentVersion put(IntentId id, String command, int dim) {
        return IntentVersion.put(1, Intent.builder().id(id).command(command).embedding(new float[dim]).build());
    }

    @Test
    void rejectsUnsortedDuplicateAndWrongDimensionInput() {
        IntentId a = IntentId.of(0, 1);
        IntentId b = IntentId.of(0, 2);
        IntentId high = IntentId.of(-1, 0); // unsigned order: greater than a and b
        SegmentWriter writer = new SegmentWriter(LocalFileLayer.INSTANCE);
        SegmentWriteOptions options = SegmentWriteOptions.of(1, 0, 4, EmbeddingType.F32);
        Path file = dir.resolve("bad.tbf");
        assertThrows(IllegalArgumentException.class, () -> writer.write(file, options, List.of(put(b, "", 4), put(a, "", 4))));
        assertThrows(IllegalArgumentException.class, () -> writer.write(file, options, List.of(put(a, "", 4), put(a, "", 4))));
        assertThrows(IllegalArgumentException.class, () -> writer.write(file, options, List.of(put(high, "", 4), put(a, "", 4))));
        assertThrows(IllegalArgumentException.class, () -> writer.write(file, options, List.of(put(a, "", 4), put(b, "", 3))));
        assertThrows(IllegalArgumentException.class, () -> SegmentWriteOptions.of(1, 0, 0, EmbeddingType.F32));
        assertThrows(IllegalArgumentException.class, () -> SegmentWriteOptions.of(1, 0, 65_537, EmbeddingType.F32));
    }

    @Test
    void outputIsDeterministicAndIndependentOfTheBufferSize() throws IOException {
        Shape shape = new Shape(200, 24, EmbeddingType.F16, true, 0.2, 5, true, 99);
        List<IntentVersion> versions = SegmentFixtures.randomVersions(shape);
        SegmentWriteOptions options = SegmentFixtures.options(shape);
        Path one = dir.resolve("one.tbf");
        Path two = dir.resolve("two.tbf");
        Path small = dir.resolve("small.tbf");
        new SegmentWriter(LocalFileLayer.INSTANCE).write(one, options, versions);
        new SegmentWriter(LocalFileLayer.INSTANCE).write(two, options, versions);
        SegmentWriter tiny = new SegmentWriter(LocalFileLayer.INSTANCE, 64);
        tiny.write(small, options, versions);
        byte[] expected = Files.readAllBytes(one);
        assertArrayEquals(expected, Files.readAllBytes(two));
        assertArrayEquals(expected, Files.readAllBytes(small));
        // A reused writer gives the same bytes again.
        tiny.write(small, options, versions);
        assertArrayEquals(expected, Files.readAllBytes(small));
    }

    /**
     * The writer's buffer is reused and embeddings are encoded into it without zeroing first;
     * the padding after each vector must still come out zero. A small buffer that the random
     * ids column has just filled makes stale bytes sit exactly where the padding goes.
     */
    @Test
    void vectorPaddingIsZeroWhateverTheBufferHeldBefore() throws IOException {
        for (EmbeddingType type : EmbeddingType.values()) {
            Shape shape = new Shape(400, 3, type, false, 0.1, 2, false, 17);
            Path file = dir.resolve("padding-" + type.label() + ".tbf");
            new SegmentWriter(LocalFileLayer.INSTANCE, 4096).write(file, SegmentFixtures.options(shape),
                    SegmentFixtures.randomVersions(shape));
            try (SegmentReader reader = SegmentFixtures.open(file)) {
                reader.verify();
                int payload = (int) type.vectorBytes(3);
                for (int row = 0; row < reader.rowCount(); row++) {
                    MemorySegment vector = reader.embedding(row);
                    if (vector != null) {
                        assertEquals(-1L, vector.asSlice(payload).mismatch(MemorySegment.ofArray(
                                new byte[(int) vector.byteSize() - payload])), type + " row " + row);
                    }
                }
            }
        }
    }

    @Test
    void layoutFollowsTheFormat() throws IOException {
        Shape shape = new Shape(150, 10, EmbeddingType.INT8, true, 0.3, 4, false, 5);
        Path file = dir.resolve("layout.tbf");
        SegmentSummary summary = SegmentFixtures.write(file, SegmentFixtures.options(shape), SegmentFixtures.randomVersions(shape));
        byte[] bytes = Files.readAllBytes(file);
        MemorySegment s = MemorySegment.ofArray(bytes);
        assertArrayEquals(MAGIC, s.asSlice(0, 4).toArray(U8));
        assertArrayEquals(MAGIC, s.asSlice(bytes.length - 4, 4).toArray(U8));
        assertEquals(1, s.get(U16, H_VERSION_MAJOR));
        assertEquals(0, s.get(U16, H_VERSION_MINOR));
        assertEquals(128, s.get(U64, H_NODE_REGION_OFFSET));
        assertEquals(0, s.get(U16, H_FLAGS) & FLAG_IS_PARTIAL);
        assertEquals(summary.fileSize(), bytes.length);
        Footer footer = Crafting.footerOf(bytes);
        long previousEnd = HEADER_BYTES;
        int previousKind = 0;
        for (RegionEntry e : footer.entries()) {
            assertTrue(e.offset() % 64 == 0, e.describe() + " is 64-aligned");
            assertTrue(e.offset() >= previousEnd && e.offset() - previousEnd < 64, e.describe() + " follows the previous region");
            assertTrue(e.kind() > previousKind, "regions are written in kind order");
            previousEnd = e.end();
            previousKind = e.kind();
        }
        assertEquals(18, footer.entries().size());
        assertEquals(s.get(U64, H_FOOTER_OFFSET), alignUp(previousEnd));
        assertEquals(bytes.length - 8 - s.get(U64, H_FOOTER_OFFSET), Integer.toUnsignedLong(s.get(U32, bytes.length - 8)));
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            assertEquals(s.get(U64, H_EMBED_REGION_OFFSET), reader.directory().entry(RegionKind.EMBEDDINGS).offset());
            assertEquals(0, reader.embeddingRegion().byteSize() % 64);
            assertEquals(reader.putCount() * 64L, reader.embeddingRegion().byteSize());
        }
    }

    @Test
    void withoutReverseEdgesThereIsNoCscRegion() throws IOException {
        Shape shape = new Shape(20, 3, EmbeddingType.F32, false, 0, 3, false, 8);
        Path file = dir.resolve("nocsc.tbf");
        SegmentFixtures.write(file, SegmentFixtures.options(shape), SegmentFixtures.randomVersions(shape));
        Footer footer = Crafting.footerOf(Files.readAllBytes(file));
        assertEquals(17, footer.entries().size());
        assertFalse(footer.hasReverseEdges());
        assertTrue(footer.entries().stream().noneMatch(e -> e.kind() == KIND_CSC));
    }

    @Test
    void repeatedCommandsAreStoredOnceAndCompressedWhenThatPays() throws IOException {
        List<IntentVersion> versions = new ArrayList<>();
        String[] commands = new String[8];
        for (int i = 0; i < commands.length; i++) {
            commands[i] = "kubectl --namespace production rollout restart deployment/web-frontend-" + i;
        }
        for (int i = 0; i < 100; i++) {
            versions.add(put(IntentId.of(0, i), commands[i % commands.length], 2));
        }
        Path file = dir.resolve("zstd.tbf");
        SegmentFixtures.write(file, SegmentWriteOptions.of(1, 0, 2, EmbeddingType.F32), versions);
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            assertEquals(COMPRESSION_ZSTD, reader.header().compression());
            RegionEntry e = reader.directory().entry(RegionKind.STRING_TABLE);
            assertEquals(ENCODING_ZSTD, e.encoding());
            assertEquals(8, e.elementCount());
            long raw = 4 + 4 * 9 + java.util.Arrays.stream(commands).mapToLong(String::length).sum();
            assertEquals(raw, e.rawLength());
            assertTrue(e.storedLength() * 10 < raw * 9);
            assertEquals(8, reader.strings().count());
            for (int i = 0; i < 100; i++) {
                assertEquals(commands[i % commands.length], reader.command(i));
            }
            reader.verify();
        }
    }

    @Test
    void smallOrIncompressibleTablesStayRaw() throws IOException {
        Path small = dir.resolve("small.tbf");
        SegmentFixtures.write(small, SegmentWriteOptions.of(1, 0, 2, EmbeddingType.F32),
                List.of(put(IntentId.of(0, 1), "ls", 2), put(IntentId.of(0, 2), "ls -la /tmp/some/where", 2)));
        Random r = new Random(3);
        List<IntentVersion> noisy = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            StringBuilder b = new StringBuilder();
            for (int k = 0; k < 40; k++) {
                b.append((char) (0x21 + r.nextInt(94)));
            }
            noisy.add(put(IntentId.of(1, i), b.toString(), 2));
        }
        Path random = dir.resolve("random.tbf");
        SegmentFixtures.write(random, SegmentWriteOptions.of(1, 0, 2, EmbeddingType.F32), noisy);
        for (Path file : List.of(small, random)) {
            try (SegmentReader reader = SegmentFixtures.open(file)) {
                assertEquals(COMPRESSION_NONE, reader.header().compression());
                RegionEntry e = reader.directory().entry(RegionKind.STRING_TABLE);
                assertEquals(ENCODING_RAW, e.encoding());
                assertEquals(e.storedLength(), e.rawLength());
                reader.verify();
            }
        }
        try (SegmentReader reader = SegmentFixtures.open(random)) {
            assertTrue(reader.directory().entry(RegionKind.STRING_TABLE).storedLength() > 64, "the table was a candidate");
            assertEquals(noisy.get(7).intent().command(), reader.command(7));
        }
    }

    @Test
    void emptySegmentIsValid() throws IOException {
        Path file = dir.resolve("empty.tbf");
        SegmentSummary summary = SegmentFixtures.write(file, SegmentWriteOptions.of(9, 5, 384, EmbeddingType.F32), List.of());
        assertEquals(0, summary.nodeCount());
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            reader.verify();
            assertEquals(0, reader.rowCount());
            assertEquals(-1, reader.find(IntentId.of(1, 2)));
            assertEquals(0, reader.header().flags());
            assertEquals(64, reader.bloomFilter().numBits());
            assertEquals(List.of(), reader.edgesTo(IntentId.of(1, 2)));
            assertEquals(0, reader.strings().count());
        }
    }
}
