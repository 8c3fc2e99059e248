package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Random operation histories (puts, re-puts of the same ids, tombstones) cut into 1..6 segments
 * with increasing, disjoint sequence ranges are compacted; the outputs must hold exactly the
 * newest version of every id (tombstones dropped only when bottommost), sorted, split into
 * disjoint ascending outputs no larger than the target, within the memory bound.
 */
class MergePropertyTest {
    private static final int OUTPUT_ID_BASE = 1000;
    private static Path root;

    @BeforeContainer
    static void createRoot() {
        root = SegmentFiles.newDirectory("tala-compaction-merge");
    }

    @AfterContainer
    static void deleteRoot() {
        SegmentFiles.deleteRecursively(root);
    }

    /**
     * @param idPool         ids that operations revisit (small pools mean many shadowed versions)
     * @param tombstonePct   chance that an operation deletes
     * @param targetBytes    output target: 1 forces one row per output
     */
    record History(long seed, int segments, int maxOpsPerSegment, int idPool, int tombstonePct, boolean bottommost,
                   long targetBytes, int dimension) {
    }

    @Provide
    Arbitrary<History> histories() {
        Arbitrary<Long> targets = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(1L)),
                Tuple.of(4, Arbitraries.longs().between(3_000, 12_000)),
                Tuple.of(2, Arbitraries.just(CompactionDefaults.TARGET_OUTPUT_BYTES)));
        return Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(1, 6),
                Arbitraries.of(0, 1, 5, 40, 120), Arbitraries.of(1, 4, 30, 200), Arbitraries.of(0, 15, 30, 60),
                Arbitraries.of(true, false), targets, Arbitraries.integers().between(1, 24)).as(History::new);
    }

    @Property(tries = 100)
    void compactionOutputEqualsTheNewestVersionOfEveryId(@ForAll("histories") History h) throws Exception {
        Path dir = Files.createTempDirectory(root, "try");
        List<List<IntentVersion>> oldestFirst = segmentsOf(h);
        List<SegmentReader> inputs = new ArrayList<>();
        try {
            // Readers are given newest first, as the engine lists live segments.
            for (int i = oldestFirst.size() - 1; i >= 0; i--) {
                inputs.add(SegmentFiles.writeInput(dir, i + 1, h.dimension(), EmbeddingType.F32, oldestFirst.get(i)));
            }
            List<Path> inputFiles = SegmentFiles.listFiles(dir);
            List<CompactionProgress> progress = new ArrayList<>();
            AtomicLong ids = new AtomicLong(OUTPUT_ID_BASE);
            CompactionJob job = new CompactionJob(SegmentFiles.LOCAL,
                    CompactionJobOptions.defaults(EmbeddingType.F32).withTargetOutputBytes(h.targetBytes())
                            .withSync(false),
                    ids::getAndIncrement, id -> SegmentFiles.path(dir, id)).withProgress(progress::add);
            int outputLevel = 1 + (int) Math.floorMod(h.seed(), 5L);
            CompactionResult result = job.run(inputs, outputLevel, h.bottommost());

            List<IntentVersion> expected = model(oldestFirst, h.bottommost());
            List<IntentVersion> actual = checkOutputs(result, outputLevel, h);
            assertEquals(expected, actual);

            long inputRows = oldestFirst.stream().mapToLong(List::size).sum();
            CompactionStats s = result.stats();
            assertEquals(inputRows, s.inputRows());
            assertEquals(expected.size(), s.outputRows());
            assertEquals(s.inputRows(), s.outputRows() + s.versionsShadowed() + s.tombstonesDropped());
            assertEquals(h.bottommost() ? tombstonesInModel(oldestFirst) : 0, s.tombstonesDropped());
            assertEquals(inputs.stream().mapToLong(SegmentReader::fileSize).sum(), s.inputBytes());
            assertEquals(result.outputs().stream().mapToLong(SegmentSummary::fileSize).sum(), s.outputBytes());

            checkProgress(progress, s);
            List<Path> expectedFiles = new ArrayList<>(inputFiles);
            result.metas().forEach(m -> expectedFiles.add(SegmentFiles.path(dir, m.id())));
            assertEquals(expectedFiles.stream().sorted().toList(), SegmentFiles.listFiles(dir),
                    "the directory holds the inputs and the outputs, nothing else");
            // The generator must reach the interesting cases, or the property proves little.
            Statistics.label("several outputs").collect(result.outputs().size() > 1);
            Statistics.label("shadowed").collect(s.versionsShadowed() > 0);
            Statistics.label("tombstones dropped").collect(s.tombstonesDropped() > 0);
            Statistics.label("tombstones kept").collect(result.outputs().stream().anyMatch(o -> o.tombstoneCount() > 0));
            // Loose bounds (the generator hits each case 15-50% of the time) so the check is not flaky.
            Statistics.label("several outputs").coverage(c -> c.check(true).percentage(p -> p >= 10));
            Statistics.label("shadowed").coverage(c -> c.check(true).percentage(p -> p >= 10));
            Statistics.label("tombstones dropped").coverage(c -> c.check(true).percentage(p -> p >= 3));
            Statistics.label("tombstones kept").coverage(c -> c.check(true).percentage(p -> p >= 3));
        } finally {
            SegmentFiles.closeAll(inputs);
            SegmentFiles.deleteRecursively(dir);
        }
    }

    /** Opens every output and checks the properties of each; returns their rows concatenated. */
    private static List<IntentVersion> checkOutputs(CompactionResult result, int outputLevel, History h)
            throws Exception {
        RowSizeEstimator estimator = new RowSizeEstimator(h.dimension(), EmbeddingType.F32, true);
        List<IntentVersion> all = new ArrayList<>();
        List<List<IntentVersion>> perOutput = new ArrayList<>();
        IntentId previousLast = null;
        long maxRows = 0;
        long runMinSequence = result.outputs().stream().mapToLong(SegmentSummary::minSequence).min().orElse(0);
        long runMaxSequence = result.outputs().stream().mapToLong(SegmentSummary::maxSequence).max().orElse(0);
        for (int k = 0; k < result.outputs().size(); k++) {
            SegmentSummary summary = result.outputs().get(k);
            SegmentMeta meta = result.metas().get(k);
            try (SegmentReader out = SegmentReader.open(SegmentFiles.LOCAL, summary.path())) {
                out.verify();
                assertTrue(out.header().isCompacted(), "is_compacted is set");
                assertFalse(out.header().isPartial());
                assertTrue(out.hasReverseEdges());
                assertEquals(meta.id(), out.header().segmentId());
                assertEquals(outputLevel, meta.level());
                assertTrue(meta.compacted());
                assertEquals(out.fileSize(), meta.fileSize());
                assertEquals(out.rowCount(), meta.rows());
                // The MANIFEST range is the whole merge's (one sorted run); the footer's is the file's own.
                assertEquals(runMinSequence, meta.minSequence());
                assertEquals(runMaxSequence, meta.maxSequence());
                assertTrue(meta.minSequence() <= out.footer().minSequence()
                        && out.footer().maxSequence() <= meta.maxSequence(), "the range bounds the file's rows");
                assertTrue(out.rowCount() > 0, "no empty outputs");
                List<IntentVersion> rows = SegmentFiles.readAll(out);
                for (int i = 1; i < rows.size(); i++) {
                    assertTrue(rows.get(i - 1).id().compareTo(rows.get(i).id()) < 0, "rows sorted by id");
                }
                if (previousLast != null) {
                    assertTrue(previousLast.compareTo(rows.getFirst().id()) < 0,
                            "outputs' id ranges are disjoint and ascending");
                }
                previousLast = rows.getLast().id();
                maxRows = Math.max(maxRows, rows.size());
                perOutput.add(rows);
                all.addAll(rows);
            }
        }
        // Memory bound: the job buffered one output at a time, and an output stays within the
        // target unless it is a single row.
        assertEquals(maxRows, result.stats().maxBufferedRows());
        for (int k = 0; k < perOutput.size(); k++) {
            List<IntentVersion> rows = perOutput.get(k);
            long estimate = estimator.segmentOverhead() + rows.stream().mapToLong(estimator::estimate).sum();
            if (rows.size() > 1) {
                assertTrue(estimate <= h.targetBytes(), "output " + k + " estimated at " + estimate
                        + " bytes exceeds the target " + h.targetBytes());
            }
            if (k + 1 < perOutput.size()) {
                long withNext = estimate + estimator.estimate(perOutput.get(k + 1).getFirst());
                assertTrue(withNext > h.targetBytes(), "output " + k + " was closed before it was full");
            }
            assertTrue(estimate <= result.stats().maxBufferedBytes());
        }
        return all;
    }

    private static void checkProgress(List<CompactionProgress> progress, CompactionStats stats) {
        assertFalse(progress.isEmpty());
        CompactionProgress last = progress.getLast();
        assertEquals(stats.inputRows(), last.rowsProcessed());
        assertEquals(stats.inputRows(), last.rowsTotal());
        assertEquals(stats.inputBytes(), last.bytesProcessed());
        assertEquals(stats.inputBytes(), last.bytesTotal());
        assertEquals(stats.outputBytes(), last.bytesWritten());
        assertEquals(stats.outputSegments(), last.outputsWritten());
        for (int i = 1; i < progress.size(); i++) {
            assertTrue(progress.get(i).rowsProcessed() >= progress.get(i - 1).rowsProcessed());
            assertTrue(progress.get(i).bytesProcessed() >= progress.get(i - 1).bytesProcessed());
            assertTrue(progress.get(i).bytesWritten() >= progress.get(i - 1).bytesWritten());
        }
    }

    /** Segments oldest first; each holds the last operation on each id it saw, as a memtable does. */
    static List<List<IntentVersion>> segmentsOf(History h) {
        RandomIntents intents = new RandomIntents(h.seed(), h.dimension());
        Random random = intents.random();
        List<IntentId> pool = new ArrayList<>();
        for (int i = 0; i < h.idPool(); i++) {
            pool.add(intents.newId());
        }
        long sequence = 1 + random.nextInt(1000);
        List<List<IntentVersion>> segments = new ArrayList<>();
        for (int s = 0; s < h.segments(); s++) {
            TreeMap<IntentId, IntentVersion> memtable = new TreeMap<>();
            int ops = h.maxOpsPerSegment() == 0 ? 0 : 1 + random.nextInt(h.maxOpsPerSegment());
            for (int op = 0; op < ops; op++) {
                IntentId id = random.nextInt(4) == 0 ? intents.newId() : pool.get(random.nextInt(pool.size()));
                IntentVersion v = random.nextInt(100) < h.tombstonePct()
                        ? IntentVersion.tombstone(id, sequence++)
                        : IntentVersion.put(sequence++, intents.next(id));
                memtable.put(id, v);
            }
            segments.add(new ArrayList<>(memtable.values()));
            sequence += random.nextInt(3); // gaps between segments, as other writes went elsewhere
        }
        return segments;
    }

    /** id -> newest version over all segments; tombstones dropped when bottommost. */
    static List<IntentVersion> model(List<List<IntentVersion>> oldestFirst, boolean bottommost) {
        TreeMap<IntentId, IntentVersion> newest = new TreeMap<>();
        for (List<IntentVersion> segment : oldestFirst) {
            for (IntentVersion v : segment) {
                newest.put(v.id(), v);
            }
        }
        if (bottommost) {
            newest.values().removeIf(IntentVersion::isTombstone);
        }
        return new ArrayList<>(newest.values());
    }

    private static long tombstonesInModel(List<List<IntentVersion>> oldestFirst) {
        Map<IntentId, IntentVersion> newest = new TreeMap<>();
        for (List<IntentVersion> segment : oldestFirst) {
            for (IntentVersion v : segment) {
                newest.put(v.id(), v);
            }
        }
        return newest.values().stream().filter(IntentVersion::isTombstone).count();
    }
}
