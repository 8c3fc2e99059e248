package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.SegmentFixtures.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * A segment's bytes do not depend on the size of the writer's buffer. A small buffer fills in
 * the middle of every column, so each column (ids of 16 bytes, edge entries of 12, pointers and
 * timestamps of 8, slots of 4, flags of 1) is written in several pieces that rarely divide the
 * buffer evenly; the file must still be the one a 1 MiB buffer writes in one piece.
 */
class WriterBufferSizeTest {
    private static final int LARGE_BUFFER = 1 << 20;
    private static Path dir;

    @BeforeContainer
    static void createDirectory() {
        dir = TempFiles.newDirectory("tbf-buffer-size");
    }

    @AfterContainer
    static void deleteDirectory() {
        TempFiles.deleteRecursively(dir);
    }

    @Provide
    Arbitrary<Shape> shapes() {
        return Combinators.combine(Arbitraries.integers().between(0, 300), Arbitraries.of(1, 7, 16, 24),
                Arbitraries.of(EmbeddingType.class), Arbitraries.of(true, false), Arbitraries.of(0.0, 0.2),
                Arbitraries.of(0, 4), Arbitraries.of(true, false), Arbitraries.longs()).as(Shape::new);
    }

    @Property(tries = 60)
    void smallBuffersWriteTheSameBytes(@ForAll("shapes") Shape shape,
                                       @ForAll("bufferSizes") int bufferBytes) throws Exception {
        List<IntentVersion> versions = SegmentFixtures.randomVersions(shape);
        SegmentWriteOptions options = SegmentFixtures.options(shape);
        Path small = dir.resolve("small.tbf");
        Path large = dir.resolve("large.tbf");
        new SegmentWriter(LocalFileLayer.INSTANCE, bufferBytes).write(small, options, versions);
        new SegmentWriter(LocalFileLayer.INSTANCE, LARGE_BUFFER).write(large, options, versions);
        assertArrayEquals(Files.readAllBytes(large), Files.readAllBytes(small),
                "written with a " + bufferBytes + "-byte buffer");
    }

    @Provide
    Arbitrary<Integer> bufferSizes() {
        return Arbitraries.integers().between(64, 600);
    }
}
