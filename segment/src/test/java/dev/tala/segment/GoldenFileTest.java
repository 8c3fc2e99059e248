package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Edge;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.segment.format.TbfFormat;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed tiny segment decodes to known values, and the writer still produces it byte for byte. */
class GoldenFileTest {
    @TempDir
    Path dir;
    private byte[] golden;
    private Path file;

    private static IntentId id(String text) {
        return IntentId.parse(text);
    }

    @BeforeEach
    void load() throws IOException {
        try (InputStream in = GoldenFileTest.class.getResourceAsStream("/golden/tiny.tbf")) {
            golden = in.readAllBytes();
        }
        file = dir.resolve("tiny.tbf");
        Files.write(file, golden);
    }

    @Test
    void theWriterReproducesTheGoldenBytes() throws IOException {
        Path fresh = dir.resolve("fresh.tbf");
        new SegmentWriter(LocalFileLayer.INSTANCE).write(fresh, GoldenSegment.options(), GoldenSegment.versions());
        assertArrayEquals(golden, Files.readAllBytes(fresh));
    }

    @Test
    void headerAndFooterHoldTheKnownValues() throws IOException {
        assertEquals(2340, golden.length);
        MemorySegment s = MemorySegment.ofArray(golden);
        assertEquals(0x5b2a3d77, s.get(TbfFormat.U32, 104));
        try (SegmentReader r = SegmentFixtures.open(file)) {
            SegmentHeader h = r.header();
            assertEquals(new SegmentHeader(1, 0, 42, 1_700_000_000_000_000_000L, 4, 4, 4, EmbeddingType.F32, 0, 3,
                    128, 832, 1024, 1344, 1408, 1472, 1536), h);
            assertTrue(h.hasOutcomes());
            assertTrue(h.hasEmbeddings());
            assertFalse(h.isCompacted() || h.isEncrypted() || h.isPartial());
            Footer f = r.footer();
            assertEquals(18, f.entries().size());
            assertArrayEquals(new long[] {1_700_000_000_000_000_001L, 1_700_000_000_000_000_004L, 10, 13, 3, 1, 1},
                    new long[] {f.minTimestamp(), f.maxTimestamp(), f.minSequence(), f.maxSequence(), f.putCount(),
                        f.tombstoneCount(), f.foreignIdCount()});
            assertTrue(f.hasReverseEdges());
            assertEquals(64, r.bloomFilter().numBits());
            assertEquals(12, r.bloomFilter().numHashes());
            assertEquals(0x38f5c7d1734fcd5dL, s.get(TbfFormat.U64, 1408 + 12));
            assertEquals(1, r.idIndex().blockCount());
            r.verify();
        }
    }

    @Test
    void rowsDecodeToTheKnownValues() throws IOException {
        IntentId a = id("00000000-0000-7000-8000-000000000001");
        IntentId b = id("00000000-0000-7000-8000-000000000002");
        IntentId c = id("00000000-0000-7000-8000-000000000003");
        IntentId d = id("00000000-0000-7000-8000-000000000004");
        IntentId foreign = id("ffffffff-0000-7000-8000-0000000000ff");
        try (SegmentReader r = SegmentFixtures.open(file)) {
            assertEquals(4, r.rowCount());
            assertEquals(List.of(a, b, c, d), List.of(r.id(0), r.id(1), r.id(2), r.id(3)));
            assertArrayEquals(new long[] {1_700_000_000_000_000_001L, 1_700_000_000_000_000_002L, 0, 1_700_000_000_000_000_004L},
                    new long[] {r.timestamp(0), r.timestamp(1), r.timestamp(2), r.timestamp(3)});
            assertArrayEquals(new long[] {0x1111, 0x2222, 0, 0x4444},
                    new long[] {r.contextHash(0), r.contextHash(1), r.contextHash(2), r.contextHash(3)});
            assertArrayEquals(new float[] {0.875f, 0.75f, 0f, 1f},
                    new float[] {r.confidence(0), r.confidence(1), r.confidence(2), r.confidence(3)});
            assertEquals(List.of(Status.SUCCESS, Status.PENDING, Status.FAILURE), List.of(r.status(0), r.status(1), r.status(3)));
            assertArrayEquals(new long[] {10, 11, 12, 13}, new long[] {r.sequence(0), r.sequence(1), r.sequence(2), r.sequence(3)});
            assertTrue(r.isTombstone(2));
            assertEquals("git status", r.command(0));
            assertEquals("make test", r.command(1));
            assertNull(r.command(2));
            assertEquals("git status", r.command(3));
            assertEquals(2, r.strings().count());
            assertEquals(new Outcome(1500, 0), r.outcome(0));
            assertNull(r.outcome(1));
            assertEquals(new Outcome(250, 2), r.outcome(3));
            assertArrayEquals(new float[] {1f, 0f, -0.5f, 0.25f}, r.embeddingAsFloats(0));
            assertArrayEquals(new float[] {0f, 1f, 0.5f, -2f}, r.embeddingAsFloats(1));
            assertArrayEquals(new float[] {0.125f, -1f, 2f, 4f}, r.embeddingAsFloats(3));
            assertArrayEquals(new int[] {0, 1, -1, 2},
                    new int[] {r.embeddingSlot(0), r.embeddingSlot(1), r.embeddingSlot(2), r.embeddingSlot(3)});
            assertEquals(List.of(new Edge(b, Relation.CAUSAL, 1f), new Edge(foreign, Relation.DEPENDENCY, 0.5f)), r.edgesFrom(0));
            assertEquals(List.of(new Edge(c, Relation.RETRY, 0.25f)), r.edgesFrom(1));
            assertEquals(List.of(), r.edgesFrom(2));
            assertEquals(List.of(new Edge(a, Relation.TEMPORAL, 0.75f)), r.edgesFrom(3));
            assertEquals(1, r.foreignIdCount());
            assertEquals(foreign, r.foreignId(0));
            assertEquals(List.of(new IncomingEdge(3, Relation.TEMPORAL, 0.75f)), r.edgesTo(a));
            assertEquals(List.of(new IncomingEdge(0, Relation.CAUSAL, 1f)), r.edgesTo(b));
            assertEquals(List.of(new IncomingEdge(1, Relation.RETRY, 0.25f)), r.edgesTo(c));
            assertEquals(List.of(), r.edgesTo(d));
            assertEquals(List.of(new IncomingEdge(0, Relation.DEPENDENCY, 0.5f)), r.edgesTo(foreign));
            assertEquals(2, r.find(c));
            assertEquals(-1, r.find(foreign));
            assertEquals(GoldenSegment.versions(), List.of(r.version(0), r.version(1), r.version(2), r.version(3)));
        }
    }
}
