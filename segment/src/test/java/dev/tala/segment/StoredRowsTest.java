package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.SegmentFixtures.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Writing rows copied from a stored segment ({@link SegmentRows#copiedFrom}, what compaction
 * does) against writing the same rows decoded into versions: the files are byte for byte the
 * same, whatever the input and output embedding types, except that an int8 vector kept as int8
 * is copied as stored where the decoded path quantizes it again. There the copy reads back as
 * exactly the stored versions.
 */
class StoredRowsTest {
    private static Path dir;

    @BeforeContainer
    static void createDirectory() {
        dir = TempFiles.newDirectory("tbf-stored-rows");
    }

    @AfterContainer
    static void deleteDirectory() {
        TempFiles.deleteRecursively(dir);
    }

    @Provide
    Arbitrary<Shape> shapes() {
        return Combinators.combine(Arbitraries.integers().between(0, 200), Arbitraries.of(1, 7, 16, 24, 384),
                Arbitraries.of(EmbeddingType.class), Arbitraries.of(true, false), Arbitraries.of(0.0, 0.2, 1.0),
                Arbitraries.of(0, 4), Arbitraries.of(true, false), Arbitraries.longs()).as(Shape::new);
    }

    @Property(tries = 60)
    void copiedRowsWriteTheSameSegmentAsDecodedOnes(@ForAll("shapes") Shape shape,
                                                    @ForAll EmbeddingType outputType) throws Exception {
        Path source = dir.resolve("source.tbf");
        SegmentFixtures.write(source, SegmentFixtures.options(shape), SegmentFixtures.randomVersions(shape));
        SegmentWriteOptions output = SegmentWriteOptions.of(77, 1_700_000_000_000_000_001L, shape.dimension(),
                outputType).withReverseEdges(!shape.reverse()).withCompacted(true);
        Path copied = dir.resolve("copied.tbf");
        Path decoded = dir.resolve("decoded.tbf");
        try (SegmentReader reader = SegmentFixtures.open(source)) {
            List<StoredRow> rows = new ArrayList<>();
            List<IntentVersion> versions = new ArrayList<>();
            for (int row = 0; row < reader.rowCount(); row++) {
                rows.add(new StoredRow(reader, row));
                versions.add(reader.version(row));
            }
            SegmentWriter writer = new SegmentWriter(LocalFileLayer.INSTANCE, 4096);
            writer.write(copied, output, SegmentRows.copiedFrom(rows));
            writer.write(decoded, output, versions);
            if (shape.type() == EmbeddingType.INT8 && outputType == EmbeddingType.INT8) {
                try (SegmentReader copy = SegmentFixtures.open(copied)) {
                    copy.verify();
                    assertEquals(reader.rowCount(), copy.rowCount());
                    for (int row = 0; row < reader.rowCount(); row++) {
                        assertEquals(versions.get(row), copy.version(row), "row " + row);
                    }
                }
            } else {
                assertArrayEquals(Files.readAllBytes(decoded), Files.readAllBytes(copied));
            }
        }
    }
}
