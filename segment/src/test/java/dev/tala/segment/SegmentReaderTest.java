package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.SegmentFixtures.Shape;
import dev.tala.segment.format.RegionKind;
import dev.tala.segment.format.TbfFormat;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader's API beyond round trips: tombstones, zero-copy views, summaries, concurrency, closing. */
class SegmentReaderTest {
    @TempDir
    Path dir;
    private Path file;
    private List<IntentVersion> versions;
    private SegmentSummary summary;

    @BeforeEach
    void write() throws IOException {
        Shape shape = new Shape(300, 384, EmbeddingType.F32, true, 0.2, 4, true, 11);
        versions = SegmentFixtures.randomVersions(shape);
        file = dir.resolve("reader.tbf");
        summary = SegmentFixtures.write(file, SegmentFixtures.options(shape).withCompacted(true), versions);
    }

    @Test
    void theSummaryReadBackIsTheOneTheWriterReported() throws IOException {
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            assertEquals(summary, reader.summary());
        }
    }

    @Test
    void tombstonesHaveNoPayload() throws IOException {
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            int tombstones = 0;
            for (int row = 0; row < reader.rowCount(); row++) {
                if (!versions.get(row).isTombstone()) {
                    continue;
                }
                tombstones++;
                assertTrue(reader.isTombstone(row));
                assertNull(reader.command(row));
                assertNull(reader.embedding(row));
                assertNull(reader.embeddingAsFloats(row));
                assertNull(reader.outcome(row));
                assertEquals(-1, reader.embeddingSlot(row));
                assertEquals(List.of(), reader.edgesFrom(row));
                assertEquals(0, reader.timestamp(row));
                assertEquals(versions.get(row).sequence(), reader.sequence(row));
                assertEquals(row, reader.find(versions.get(row).id()));
            }
            assertTrue(tombstones > 20, "the fixture has tombstones");
            assertEquals(tombstones, reader.footer().tombstoneCount());
        }
    }

    @Test
    void embeddingsAreAlignedSlicesThatVectorLoadsRead() throws IOException {
        VectorSpecies<Float> species = FloatVector.SPECIES_PREFERRED;
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            assertEquals(1536, reader.stride());
            int slot = 0;
            for (int row = 0; row < reader.rowCount(); row++) {
                MemorySegment v = reader.embedding(row);
                if (v == null) {
                    continue;
                }
                assertEquals(slot++, reader.embeddingSlot(row));
                assertEquals(1536, v.byteSize());
                assertEquals(0, v.address() % 64, "vector of row " + row + " is 64-byte aligned");
                float[] expected = versions.get(row).intent().embedding();
                float dot = 0;
                for (int i = 0; i < 384; i += species.length()) {
                    FloatVector x = FloatVector.fromMemorySegment(species, v, i * 4L, ByteOrder.LITTLE_ENDIAN);
                    dot += x.mul(x).reduceLanes(VectorOperators.ADD);
                }
                float plain = 0;
                for (float f : expected) {
                    plain += f * f;
                }
                assertEquals(plain, dot, Math.abs(plain) * 1e-4);
                assertArrayEquals(expected, reader.embeddingAsFloats(row));
            }
            assertEquals(reader.putCount(), slot);
            assertEquals(reader.putCount() * 1536L, reader.embeddingRegion().byteSize());
        }
    }

    @Test
    void columnsAreTheRawLittleEndianValues() throws IOException {
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            MemorySegment ts = reader.timestampColumn();
            assertEquals(reader.rowCount() * 8L, ts.byteSize());
            assertEquals(reader.rowCount() * 16L, reader.idsColumn().byteSize());
            for (int row = 0; row < reader.rowCount(); row++) {
                IntentVersion v = versions.get(row);
                long expected = v.isTombstone() ? 0 : v.intent().timestampNs();
                assertEquals(expected, ts.get(TbfFormat.U64, row * 8L));
                assertEquals(v.id(), dev.tala.core.model.IntentId.readFrom(reader.idsColumn(), row * 16L));
            }
            assertTrue(reader.header().isCompacted());
        }
    }

    @Test
    void headerAndSummaryReadsAgreeWithTheFullOpen() throws IOException {
        SegmentHeader header = SegmentReader.readHeader(LocalFileLayer.INSTANCE, file);
        SegmentInfo info = SegmentReader.readSummary(LocalFileLayer.INSTANCE, file);
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            assertEquals(reader.header(), header);
            assertEquals(reader.footer(), info.footer());
            assertEquals(summary.fileSize(), info.fileSize());
            assertEquals(summary.putCount(), info.putCount());
            assertEquals(summary.tombstoneCount(), info.tombstoneCount());
            assertEquals(summary.minTimestamp(), info.minTimestamp());
            assertEquals(summary.maxSequence(), info.maxSequence());
            assertEquals(summary.flags(), info.flags());
            assertEquals(18, info.regions().size());
            assertEquals(reader.directory().entriesByOffset(), info.regions());
        }
    }

    @Test
    void concurrentReadersSeeTheSameVersions() throws Exception {
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Callable<Boolean>> tasks = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int offset = t * 37;
                    tasks.add(() -> {
                        for (int i = 0; i < reader.rowCount(); i++) {
                            int row = (i + offset) % reader.rowCount();
                            if (!versions.get(row).equals(reader.version(row))) {
                                return false;
                            }
                        }
                        return true;
                    });
                }
                for (Future<Boolean> f : pool.invokeAll(tasks)) {
                    assertTrue(f.get());
                }
            } finally {
                pool.shutdown();
            }
        }
    }

    @Test
    void callerErrorsAndClosing() throws IOException {
        SegmentReader reader = SegmentFixtures.open(file);
        assertThrows(IndexOutOfBoundsException.class, () -> reader.id(reader.rowCount()));
        assertThrows(IndexOutOfBoundsException.class, () -> reader.version(-1));
        reader.close();
        reader.close();
        assertThrows(IllegalStateException.class, () -> reader.timestamp(0));
    }

    @Test
    void verifyAllReportsEveryDamagedRegion() throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        long tsAt;
        long embAt;
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            tsAt = reader.directory().entry(RegionKind.TIMESTAMPS).offset();
            embAt = reader.directory().entry(RegionKind.EMBEDDINGS).offset();
        }
        bytes[(int) tsAt + 3] ^= 0x10;
        bytes[(int) embAt + 100] ^= 0x01;
        Path damaged = dir.resolve("damaged.tbf");
        Files.write(damaged, bytes);
        try (SegmentReader reader = SegmentFixtures.open(damaged)) {
            List<CorruptionException> problems = reader.verifyAll();
            assertTrue(problems.size() >= 2, problems.toString());
            assertTrue(problems.stream().anyMatch(p -> p.offset() == tsAt && p.what().contains("2 (timestamps)")), problems.toString());
            assertTrue(problems.stream().anyMatch(p -> p.offset() == embAt && p.what().contains("12 (embeddings)")), problems.toString());
            CorruptionException first = assertThrows(CorruptionException.class, reader::verify);
            assertEquals(problems.get(0).getMessage(), first.getMessage());
            assertTrue(first.getMessage().startsWith(damaged.toString()));
            assertFalse(problems.get(0).what().isEmpty());
        }
    }
}
