package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.segment.SegmentFixtures.Shape;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment file cut short after it was mapped (by something outside the database: segments are
 * never changed in place) makes the first read of the header fault. The JVM turns that fault
 * into an {@link InternalError}, not a RuntimeException, and the open used to unmap only on
 * the latter: the mapping stayed for the life of the process.
 */
class OpenUnmapsOnFaultTest {
    @TempDir
    Path dir;

    @Test
    void aFaultWhileOpeningUnmapsTheFile() throws IOException {
        Shape shape = new Shape(20, 8, EmbeddingType.F32, false, 0, 1, false, 3);
        Path file = dir.resolve("cut.tbf");
        SegmentFixtures.write(file, SegmentFixtures.options(shape), SegmentFixtures.randomVersions(shape));
        AtomicBoolean unmapped = new AtomicBoolean();
        ForwardingFileLayer cutAfterMapping = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public MappedRegion map(Path path) throws IOException {
                MappedRegion mapped = inner.map(path);
                try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {
                    raf.setLength(0);
                }
                return new MappedRegion() {
                    @Override
                    public Path path() {
                        return mapped.path();
                    }

                    @Override
                    public MemorySegment segment() {
                        return mapped.segment();
                    }

                    @Override
                    public void close() {
                        unmapped.set(true);
                        mapped.close();
                    }
                };
            }
        };
        assertThrows(InternalError.class, () -> SegmentReader.open(cutAfterMapping, file));
        assertTrue(unmapped.get(), "the mapping of a file whose read faulted was left in place");
    }
}
