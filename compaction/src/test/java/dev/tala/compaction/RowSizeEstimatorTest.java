package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/** The estimate that cuts outputs must be an upper bound of real segments, and not a loose one. */
class RowSizeEstimatorTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"384, F32, 2000", "384, INT8, 2000", "16, F32, 3000", "1, F16, 500"})
    void theEstimateBoundsTheFileFromAbove(int dim, EmbeddingType type, int rows) throws Exception {
        RandomIntents intents = new RandomIntents(dim * 31L + rows, dim);
        TreeMap<IntentId, IntentVersion> versions = new TreeMap<>();
        for (int i = 0; i < rows; i++) {
            IntentId id = intents.newId();
            versions.put(id, i % 10 == 0 ? IntentVersion.tombstone(id, i + 1) : IntentVersion.put(i + 1, intents.next(id)));
        }
        List<IntentVersion> list = new ArrayList<>(versions.values());
        RowSizeEstimator estimator = new RowSizeEstimator(dim, type, true);
        long estimate = estimator.segmentOverhead() + list.stream().mapToLong(estimator::estimate).sum();
        try (SegmentReader r = SegmentFiles.writeInput(dir, 1, dim, type, list)) {
            long actual = r.fileSize();
            System.out.printf("dim %d %s rows %d: file %d bytes, estimate %d (%.2fx)%n", dim, type, rows, actual,
                    estimate, (double) estimate / actual);
            assertTrue(actual <= estimate, "file " + actual + " > estimate " + estimate);
            assertTrue(estimate <= actual * 2, "estimate " + estimate + " is more than twice the file " + actual);
        }
    }
}
