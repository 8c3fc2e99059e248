package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Relation;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentSummary;
import dev.tala.segment.SegmentWriteOptions;
import dev.tala.segment.SegmentWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.BeforeTry;
import net.jqwik.api.statistics.Statistics;

/**
 * Moves: a compaction whose inputs share no id keeps them as they are. The property holds a move
 * against the merge the same inputs would otherwise get: whenever a move is made, the rows it
 * leaves are exactly the rows the merge writes, and it is made exactly when no two inputs' id
 * ranges meet and nothing has to be dropped.
 */
class SegmentMoveTest {
    private static final int DIM = 8;
    private static final long OUTPUT_ID_BASE = 1000;
    private static Path root;

    private Path dir;
    private final List<SegmentReader> opened = new ArrayList<>();

    @BeforeContainer
    static void createRoot() {
        root = SegmentFiles.newDirectory("tala-segment-move");
    }

    @AfterContainer
    static void deleteRoot() {
        SegmentFiles.deleteRecursively(root);
    }

    @BeforeTry
    void newDirectory() throws IOException {
        dir = Files.createTempDirectory(root, "try");
    }

    @AfterTry
    void cleanUp() {
        SegmentFiles.closeAll(opened);
        opened.clear();
        SegmentFiles.deleteRecursively(dir);
    }

    /**
     * @param interleaved whether ids are dealt to segments at random (their ranges then mostly
     *                    overlap) instead of in consecutive blocks
     */
    record Inputs(long seed, int segments, int rowsPerSegment, boolean interleaved, int tombstonePct,
                  boolean bottommost) {
    }

    @Provide
    Arbitrary<Inputs> inputs() {
        return Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(1, 5),
                Arbitraries.integers().between(1, 40), Arbitraries.of(false, false, true), Arbitraries.of(0, 0, 10),
                Arbitraries.of(true, false)).as(Inputs::new);
    }

    @Property(tries = 60)
    void aMoveLeavesExactlyTheRowsAMergeWrites(@ForAll("inputs") Inputs in) throws Exception {
        List<List<IntentVersion>> oldestFirst = rows(in);
        List<SegmentReader> readers = new ArrayList<>();
        List<SegmentMeta> metas = new ArrayList<>();
        for (int i = oldestFirst.size() - 1; i >= 0; i--) {
            SegmentReader r = write(i + 1, oldestFirst.get(i));
            readers.add(r);
            metas.add(meta(i + 1, r));
        }
        CompactionChoice choice = new CompactionChoice(metas, 2, in.bottommost(), CompactionChoice.Reason.FULL);
        long smallest = readers.stream().mapToLong(SegmentReader::fileSize).min().orElseThrow();
        CompactionJobOptions options = CompactionJobOptions.defaults(EmbeddingType.F32).withSync(false)
                .withTargetOutputBytes(smallest);
        List<Path> before = SegmentFiles.listFiles(dir);

        AtomicLong ids = new AtomicLong(OUTPUT_ID_BASE);
        CompactionResult moved = job(options, ids).run(choice, readers);
        boolean expectMove = rangesDisjoint(oldestFirst) && !(in.bottommost() && hasTombstone(oldestFirst));
        assertEquals(expectMove, moved.stats().moved(), "moved, for " + in);
        Statistics.label("moved").collect(expectMove);
        // Loose bounds: each side is hit about 30% or 70% of the time, and seeds vary between runs.
        Statistics.label("moved").coverage(c -> {
            c.check(true).percentage(p -> p >= 5);
            c.check(false).percentage(p -> p >= 5);
        });
        if (!expectMove) {
            return;
        }
        assertEquals(before, SegmentFiles.listFiles(dir), "a move creates no file");
        assertEquals(OUTPUT_ID_BASE, ids.get(), "a move spends no segment id");
        assertEquals(0, moved.stats().outputBytes());
        assertEquals(choice.inputRows(), moved.stats().outputRows());
        long minSequence = metas.stream().mapToLong(SegmentMeta::minSequence).min().orElseThrow();
        long maxSequence = metas.stream().mapToLong(SegmentMeta::maxSequence).max().orElseThrow();
        for (int k = 0; k < moved.metas().size(); k++) {
            SegmentMeta m = moved.metas().get(k);
            SegmentMeta input = metas.stream().filter(x -> x.id() == m.id()).findFirst().orElseThrow();
            assertEquals(input.withSequenceRange(minSequence, maxSequence), withLevel(m, input.level()));
            assertEquals(2, m.level());
            assertEquals(SegmentFiles.path(dir, m.id()), moved.outputs().get(k).path());
        }

        CompactionResult merged = job(options.withMoves(false), ids).run(choice, readers);
        assertFalse(merged.stats().moved());
        assertEquals(rowsOf(merged.outputs()), rowsOf(moved.outputs()));
    }

    @Example
    void aBottommostChoiceKeepsItsTombstonesOnlyByMerging() throws Exception {
        RandomIntents intents = new RandomIntents(3, DIM);
        List<IntentId> sorted = intents.newIdsAscending(4);
        SegmentReader newer = write(2, List.of(IntentVersion.tombstone(sorted.get(2), 3),
                IntentVersion.put(4, intents.next(sorted.get(3)))));
        SegmentReader older = write(1, List.of(IntentVersion.put(1, intents.next(sorted.get(0))),
                IntentVersion.put(2, intents.next(sorted.get(1)))));
        List<SegmentMeta> live = List.of(meta(2, newer), meta(1, older));
        CompactionJobOptions options = CompactionJobOptions.defaults(EmbeddingType.F32).withTargetOutputBytes(1);
        List<SegmentReader> readers = List.of(newer, older);

        CompactionChoice bottommost = new CompactionChoice(live, 1, true, CompactionChoice.Reason.FULL);
        assertTrue(SegmentMove.obstacle(bottommost, readers, options).orElseThrow().contains("tombstones"));
        CompactionChoice above = new CompactionChoice(live, 1, false, CompactionChoice.Reason.SIZE_RATIO);
        assertTrue(SegmentMove.obstacle(above, readers, options).isEmpty());
    }

    @Example
    void smallInputsAnotherEmbeddingTypeAndTheSwitchEachPreventAMove() throws Exception {
        RandomIntents intents = new RandomIntents(4, DIM);
        List<IntentId> sorted = intents.newIdsAscending(2);
        SegmentReader newer = write(2, List.of(IntentVersion.put(2, intents.next(sorted.get(1)))));
        SegmentReader older = write(1, List.of(IntentVersion.put(1, intents.next(sorted.get(0)))));
        List<SegmentReader> readers = List.of(newer, older);
        CompactionChoice choice = new CompactionChoice(List.of(meta(2, newer), meta(1, older)), 1, true,
                CompactionChoice.Reason.FULL);
        long smallest = Math.min(newer.fileSize(), older.fileSize());
        // At the limit: the smaller input holds exactly a quarter of the target.
        CompactionJobOptions atLimit = CompactionJobOptions.defaults(EmbeddingType.F32)
                .withTargetOutputBytes(smallest * CompactionDefaults.MOVE_MIN_INPUT_FRACTION);
        assertTrue(SegmentMove.obstacle(choice, readers, atLimit).isEmpty());

        assertTrue(SegmentMove.obstacle(choice, readers, atLimit.withTargetOutputBytes(CompactionDefaults.TARGET_OUTPUT_BYTES))
                .orElseThrow().contains("below"));
        assertTrue(SegmentMove.obstacle(choice, readers, atLimit.withOutputType(EmbeddingType.INT8))
                .orElseThrow().contains("INT8"));
        assertTrue(SegmentMove.obstacle(choice, readers, atLimit.withMoves(false)).orElseThrow().contains("off"));
    }

    /**
     * Ranges that meet in one id overlap: the newer input's first id is the older input's last,
     * so a move would leave two versions of that id side by side in one level.
     */
    @Example
    void inputsSharingOnlyTheirBoundaryIdAreMerged() throws Exception {
        RandomIntents intents = new RandomIntents(6, DIM);
        List<IntentId> sorted = intents.newIdsAscending(3);
        SegmentReader newer = write(2, List.of(IntentVersion.put(3, intents.next(sorted.get(1))),
                IntentVersion.put(4, intents.next(sorted.get(2)))));
        SegmentReader older = write(1, List.of(IntentVersion.put(1, intents.next(sorted.get(0))),
                IntentVersion.put(2, intents.next(sorted.get(1)))));
        List<SegmentReader> readers = List.of(newer, older);
        CompactionChoice choice = new CompactionChoice(List.of(meta(2, newer), meta(1, older)), 1, false,
                CompactionChoice.Reason.SIZE_RATIO);
        CompactionJobOptions options = CompactionJobOptions.defaults(EmbeddingType.F32).withSync(false)
                .withTargetOutputBytes(1);
        assertTrue(SegmentMove.obstacle(choice, readers, options).orElseThrow().contains("overlap"));

        CompactionResult result = job(options, new AtomicLong(OUTPUT_ID_BASE)).run(choice, readers);
        assertFalse(result.stats().moved());
        List<IntentVersion> rows = rowsOf(result.outputs());
        assertEquals(3, rows.size(), "one version per id");
        assertEquals(3, rows.get(1).sequence(), "the boundary id keeps its newer version");
    }

    /** One large input does not carry a small one along: each input must reach the limit on its own. */
    @Example
    void aSmallInputIsMergedEvenBesideALargeOne() throws Exception {
        RandomIntents intents = new RandomIntents(5, DIM);
        List<IntentId> sorted = intents.newIdsAscending(401);
        List<IntentVersion> many = new ArrayList<>();
        for (int i = 1; i < sorted.size(); i++) {
            many.add(IntentVersion.put(i + 1, intents.next(sorted.get(i))));
        }
        SegmentReader large = write(2, many);
        SegmentReader small = write(1, List.of(IntentVersion.put(1, intents.next(sorted.getFirst()))));
        CompactionChoice choice = new CompactionChoice(List.of(meta(2, large), meta(1, small)), 1, true,
                CompactionChoice.Reason.FULL);
        long target = large.fileSize();
        assertTrue((large.fileSize() + small.fileSize()) / 2 >= target / CompactionDefaults.MOVE_MIN_INPUT_FRACTION,
                "the average alone would allow a move");
        CompactionJobOptions options = CompactionJobOptions.defaults(EmbeddingType.F32).withTargetOutputBytes(target);
        assertTrue(SegmentMove.obstacle(choice, List.of(large, small), options).orElseThrow().contains(
                small.path() + " has "));
    }

    /**
     * From a mutation audit: a segment written without its reverse (CSC) edge block answers no
     * incoming-edge query, so moving it would keep that gap for good; the merge writes the block.
     */
    @Example
    void anInputWithEdgesButNoReverseBlockIsMerged() throws Exception {
        RandomIntents intents = new RandomIntents(7, DIM);
        List<IntentId> sorted = intents.newIdsAscending(3);
        // Only the first intent has an edge: to the id the newer segment holds.
        Intent source = intents.next(sorted.get(0)).toBuilder()
                .edges(List.of(new Edge(sorted.get(2), Relation.values()[0], 0.5f))).build();
        Intent other = intents.next(sorted.get(1)).toBuilder().edges(List.of()).build();
        Path path = SegmentFiles.path(dir, 1);
        new SegmentWriter(SegmentFiles.LOCAL).write(path, SegmentWriteOptions.of(1, 0, DIM, EmbeddingType.F32)
                .withReverseEdges(false).withSync(false), List.of(IntentVersion.put(1, source),
                IntentVersion.put(2, other)));
        SegmentReader older = SegmentReader.open(SegmentFiles.LOCAL, path);
        opened.add(older);
        assertTrue(older.edgeCount() > 0 && !older.hasReverseEdges());
        SegmentReader newer = write(2, List.of(IntentVersion.put(3,
                intents.next(sorted.get(2)).toBuilder().edges(List.of()).build())));
        List<SegmentReader> readers = List.of(newer, older);
        CompactionChoice choice = new CompactionChoice(List.of(meta(2, newer), meta(1, older)), 1, false,
                CompactionChoice.Reason.SIZE_RATIO);
        CompactionJobOptions options = CompactionJobOptions.defaults(EmbeddingType.F32).withSync(false)
                .withTargetOutputBytes(1);
        assertTrue(SegmentMove.obstacle(choice, readers, options).orElseThrow().contains("no reverse edge block"));

        CompactionResult result = job(options, new AtomicLong(OUTPUT_ID_BASE)).run(choice, readers);
        assertFalse(result.stats().moved());
        SegmentReader out = SegmentFiles.open(result.outputs().stream().map(SegmentSummary::path).toList()).getFirst();
        opened.add(out);
        assertTrue(out.hasReverseEdges());
        assertEquals(1, out.edgesTo(sorted.get(2)).size(), "the incoming edge is found");
    }

    /** From a mutation audit: an input with no rows is merged away, not carried along by a move. */
    @Example
    void anInputWithoutRowsIsNotMoved() throws Exception {
        RandomIntents intents = new RandomIntents(8, DIM);
        SegmentReader newer = write(2, List.of(IntentVersion.put(1, intents.next())));
        SegmentReader empty = write(1, List.of());
        List<SegmentReader> readers = List.of(newer, empty);
        CompactionChoice choice = new CompactionChoice(List.of(meta(2, newer), meta(1, empty)), 1, false,
                CompactionChoice.Reason.SIZE_RATIO);
        CompactionJobOptions options = CompactionJobOptions.defaults(EmbeddingType.F32).withSync(false)
                .withTargetOutputBytes(1);
        assertTrue(SegmentMove.obstacle(choice, readers, options).orElseThrow().contains("has no rows"));
        CompactionChoice alone = new CompactionChoice(List.of(meta(1, empty)), 1, false,
                CompactionChoice.Reason.SIZE_RATIO);
        assertTrue(SegmentMove.obstacle(alone, List.of(empty), options).orElseThrow().contains("has no rows"));
    }

    private CompactionJob job(CompactionJobOptions options, AtomicLong ids) {
        return new CompactionJob(SegmentFiles.LOCAL, options, ids::getAndIncrement, id -> SegmentFiles.path(dir, id));
    }

    private SegmentReader write(long id, List<IntentVersion> rows) throws IOException {
        SegmentReader r = SegmentFiles.writeInput(dir, id, DIM, EmbeddingType.F32, rows);
        opened.add(r);
        return r;
    }

    private List<IntentVersion> rowsOf(List<SegmentSummary> outputs) throws IOException {
        List<IntentVersion> all = new ArrayList<>();
        for (SegmentReader r : SegmentFiles.open(outputs.stream().map(SegmentSummary::path).toList())) {
            opened.add(r);
            all.addAll(SegmentFiles.readAll(r));
        }
        return all;
    }

    /** The rows of each segment, oldest segment first, with increasing disjoint sequence ranges. */
    private static List<List<IntentVersion>> rows(Inputs in) {
        RandomIntents intents = new RandomIntents(in.seed(), DIM);
        Random random = new Random(in.seed());
        List<IntentId> sorted = intents.newIdsAscending(in.segments() * in.rowsPerSegment());
        List<List<IntentId>> idsOf = new ArrayList<>();
        for (int s = 0; s < in.segments(); s++) {
            idsOf.add(new ArrayList<>());
        }
        for (int i = 0; i < sorted.size(); i++) {
            int s = in.interleaved() ? random.nextInt(in.segments()) : i / in.rowsPerSegment();
            idsOf.get(s).add(sorted.get(i));
        }
        List<List<IntentVersion>> out = new ArrayList<>();
        long sequence = 1;
        for (List<IntentId> ids : idsOf) {
            if (ids.isEmpty()) {
                ids.add(intents.newId()); // every segment holds a row; a random id may overlap others
                ids.sort(null);
            }
            List<IntentVersion> rows = new ArrayList<>();
            for (IntentId id : ids) {
                boolean tombstone = random.nextInt(100) < in.tombstonePct();
                rows.add(tombstone ? IntentVersion.tombstone(id, sequence) : IntentVersion.put(sequence, intents.next(id)));
                sequence++;
            }
            out.add(rows);
        }
        return out;
    }

    /** Brute force: no two segments' [first id, last id] ranges meet. */
    private static boolean rangesDisjoint(List<List<IntentVersion>> segments) {
        for (int a = 0; a < segments.size(); a++) {
            for (int b = a + 1; b < segments.size(); b++) {
                IntentId aFirst = segments.get(a).getFirst().id();
                IntentId aLast = segments.get(a).getLast().id();
                IntentId bFirst = segments.get(b).getFirst().id();
                IntentId bLast = segments.get(b).getLast().id();
                if (aFirst.compareTo(bLast) <= 0 && bFirst.compareTo(aLast) <= 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean hasTombstone(List<List<IntentVersion>> segments) {
        return segments.stream().flatMap(List::stream).anyMatch(IntentVersion::isTombstone);
    }

    private static SegmentMeta meta(long id, SegmentReader r) {
        return new SegmentMeta(id, 0, r.fileSize(), r.rowCount(), r.footer().tombstoneCount(), r.footer().minTimestamp(), r.footer().maxTimestamp(),
                r.footer().minSequence(), r.footer().maxSequence(), false);
    }

    private static SegmentMeta withLevel(SegmentMeta m, int level) {
        return new SegmentMeta(m.id(), level, m.fileSize(), m.rows(), m.tombstones(), m.minTimestamp(), m.maxTimestamp(),
                m.minSequence(), m.maxSequence(), m.compacted());
    }
}
