package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.WritableFile;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job's contract at its edges: what it refuses, what it does with nothing, how it ends. */
class CompactionJobTest {
    private static final int DIM = 8;

    @TempDir
    Path dir;

    private final RandomIntents intents = new RandomIntents(21, DIM);
    private final List<SegmentReader> opened = new ArrayList<>();
    private final AtomicLong ids = new AtomicLong(100);

    @AfterEach
    void close() {
        SegmentFiles.closeAll(opened);
    }

    private SegmentReader input(long id, int dim, List<IntentVersion> rows) throws IOException {
        SegmentReader r = SegmentFiles.writeInput(dir, id, dim, EmbeddingType.F32, rows);
        opened.add(r);
        return r;
    }

    /** A tombstone in segment 2 over the put it deletes in segment 1, and the two as live segments. */
    private record DeleteOverPut(SegmentReader newer, SegmentReader older) {
        List<SegmentReader> readers() {
            return List.of(newer, older);
        }

        List<SegmentMeta> live() {
            return List.of(meta(2, newer), meta(1, older));
        }
    }

    private DeleteOverPut deleteOverPut() throws IOException {
        IntentId a = intents.newId();
        return new DeleteOverPut(input(2, DIM, List.of(IntentVersion.tombstone(a, 20))),
                input(1, DIM, List.of(IntentVersion.put(10, intents.next(a)))));
    }

    private CompactionJob job() {
        return new CompactionJob(SegmentFiles.LOCAL, CompactionJobOptions.defaults(EmbeddingType.F32).withSync(false),
                ids::getAndIncrement, id -> SegmentFiles.path(dir, id));
    }

    @Test
    void aBottommostMergeOfOnlyDeletesWritesNothing() throws Exception {
        CompactionResult r = job().run(deleteOverPut().readers(), 1, true);
        assertTrue(r.outputs().isEmpty());
        assertEquals(1, r.stats().tombstonesDropped());
        assertEquals(1, r.stats().versionsShadowed());
        assertEquals(2, SegmentFiles.listFiles(dir).size(), "no output file was created");
        assertEquals(100, ids.get(), "no segment id was spent");
    }

    @Test
    void theSameMergeNotBottommostKeepsTheTombstone() throws Exception {
        CompactionResult r = job().run(deleteOverPut().readers(), 1, false);
        assertEquals(1, r.outputs().size());
        assertEquals(1, r.outputs().getFirst().tombstoneCount());
        SegmentMeta meta = r.metas().getFirst();
        assertEquals(new SegmentMeta(100, 1, r.outputs().getFirst().fileSize(), 1, 1, 0, 0, 20, 20, true), meta);
    }

    /**
     * From a mutation audit: a choice that is bottommost is merged as bottommost, so the
     * tombstone and the version it hides are both dropped (the ids meet, so this is no move).
     */
    @Test
    void aBottommostChoiceDropsItsTombstones() throws Exception {
        DeleteOverPut in = deleteOverPut();
        CompactionChoice choice = TieredPolicy.withDefaults().full(in.live()).orElseThrow();
        CompactionResult r = job().run(choice, in.readers());
        assertTrue(r.outputs().isEmpty());
        assertEquals(1, r.stats().tombstonesDropped());
        CompactionChoice above = new CompactionChoice(in.live(), 1, false, CompactionChoice.Reason.SIZE_RATIO);
        assertEquals(1, job().run(above, in.readers()).outputs().getFirst().tombstoneCount());
    }

    /**
     * What the caller says of the segments outside the merge decides a tombstone's fate only
     * where the choice is not bottommost: there, a tombstone whose id may be outside stays and
     * one whose id cannot be goes; a bottommost choice drops it whatever the caller says.
     */
    @Test
    void theSegmentsOutsideDecideOnlyAboveTheBottom() throws Exception {
        DeleteOverPut in = deleteOverPut();
        CompactionChoice above = new CompactionChoice(in.live(), 1, false, CompactionChoice.Reason.SIZE_RATIO);
        CompactionResult kept = job().run(above, in.readers(), OlderVersions.UNKNOWN);
        assertEquals(1, kept.outputs().getFirst().tombstoneCount());
        CompactionResult dropped = job().run(above, in.readers(), OlderVersions.NONE);
        assertTrue(dropped.outputs().isEmpty(), "the tombstone and the row it hid both went");
        assertEquals(1, dropped.stats().tombstonesDropped());
        CompactionChoice bottom = TieredPolicy.withDefaults().full(in.live()).orElseThrow();
        CompactionResult bottommost = job().run(bottom, in.readers(), OlderVersions.UNKNOWN);
        assertTrue(bottommost.outputs().isEmpty());
        assertEquals(1, bottommost.stats().tombstonesDropped());
    }

    @Test
    void aChoiceMustMatchItsReaders() throws Exception {
        SegmentReader s2 = input(2, DIM, List.of(IntentVersion.put(20, intents.next())));
        SegmentReader s1 = input(1, DIM, List.of(IntentVersion.put(10, intents.next())));
        List<SegmentMeta> live = List.of(meta(2, s2), meta(1, s1));
        CompactionChoice choice = TieredPolicy.withDefaults().full(live).orElseThrow();
        assertThrows(IllegalArgumentException.class, () -> job().run(choice, List.of(s1, s2)));
        CompactionResult r = job().run(choice, List.of(s2, s1));
        assertEquals(2, r.stats().outputRows());
        assertEquals(1, r.metas().getFirst().level());
    }

    /**
     * Time-ordered ids written in order: every flush holds a later block of ids and sequence
     * numbers, so the outputs of merging four flushes split by id have disjoint sequence ranges
     * too. They are one sorted run all the same, and the policy must not merge them again (it
     * once did, over and over, with no writes at all).
     */
    @Test
    void theOutputsOfOneMergeAreOneSortedRunThatIsNotMergedAgain() throws Exception {
        List<IntentId> sorted = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            sorted.add(intents.newId());
        }
        sorted.sort(null);
        List<SegmentReader> newestFirst = new ArrayList<>();
        List<SegmentMeta> live = new ArrayList<>();
        for (int flush = 3; flush >= 0; flush--) {
            List<IntentVersion> rows = new ArrayList<>();
            for (int i = flush * 100; i < flush * 100 + 100; i++) {
                rows.add(IntentVersion.put(i + 1, intents.next(sorted.get(i))));
            }
            SegmentReader r = input(flush + 1, DIM, rows);
            newestFirst.add(r);
            live.add(meta(flush + 1, r));
        }
        TieredPolicy policy = TieredPolicy.withDefaults();
        CompactionChoice choice = policy.pick(live).orElseThrow();
        // Moves off: these inputs share no id, and the point is how a merge labels its outputs.
        CompactionJob smallOutputs = new CompactionJob(SegmentFiles.LOCAL, CompactionJobOptions.defaults(EmbeddingType.F32)
                .withSync(false).withTargetOutputBytes(newestFirst.getFirst().fileSize() / 2).withMoves(false),
                ids::getAndIncrement, id -> SegmentFiles.path(dir, id));
        CompactionResult r = smallOutputs.run(choice, newestFirst);

        assertTrue(r.metas().size() >= 4, "the merge was split into " + r.metas().size() + " outputs");
        List<SegmentMeta> outputs = new ArrayList<>(r.metas());
        outputs.sort(java.util.Comparator.comparingLong(SegmentMeta::id).reversed());
        assertEquals(1, SortedRun.of(outputs).size());
        assertTrue(policy.pick(outputs).isEmpty(), "the outputs were chosen for another merge");
        for (SegmentMeta m : outputs) {
            assertEquals(1, m.minSequence(), "segment " + m.id());
            assertEquals(400, m.maxSequence(), "segment " + m.id());
        }
        for (int i = 0; i < outputs.size(); i++) {
            SegmentReader out = SegmentFiles.open(List.of(SegmentFiles.path(dir, outputs.get(i).id()))).getFirst();
            opened.add(out);
            assertTrue(out.footer().maxSequence() - out.footer().minSequence() < 399,
                    "each file's footer keeps its own, narrower range");
        }
    }

    @Test
    void badInputsAreRefusedBeforeAnythingIsWritten() throws Exception {
        SegmentReader small = input(2, DIM, List.of(IntentVersion.put(20, intents.next())));
        SegmentReader wide = input(1, DIM + 1, List.of(IntentVersion.put(10, new RandomIntents(1, DIM + 1).next())));
        assertThrows(IllegalArgumentException.class, () -> job().run(List.of(), 1, true));
        assertThrows(IllegalArgumentException.class, () -> job().run(List.of(small, wide), 1, true));
        assertThrows(IllegalArgumentException.class, () -> job().run(List.of(small), 256, true));
        assertEquals(2, SegmentFiles.listFiles(dir).size());
    }

    @Test
    void anExistingFileIsNeverOverwritten() throws Exception {
        SegmentReader s = input(1, DIM, List.of(IntentVersion.put(10, intents.next())));
        Path taken = SegmentFiles.path(dir, 100);
        Files.writeString(taken, "someone else's file");
        assertThrows(IllegalStateException.class, () -> job().run(List.of(s), 1, true));
        assertEquals("someone else's file", Files.readString(taken));
    }

    @Test
    void anInterruptStopsTheJobAndRemovesItsOutputs() throws Exception {
        List<IntentVersion> rows = new ArrayList<>();
        for (int i = 0; i < 3 * CompactionDefaults.PROGRESS_INTERVAL_ROWS; i++) {
            rows.add(IntentVersion.put(i + 1, intents.next()));
        }
        rows.sort((x, y) -> x.id().compareTo(y.id()));
        SegmentReader s = input(1, DIM, rows);
        CompactionJob job = new CompactionJob(SegmentFiles.LOCAL,
                CompactionJobOptions.defaults(EmbeddingType.F32).withTargetOutputBytes(50_000).withSync(false),
                ids::getAndIncrement, id -> SegmentFiles.path(dir, id))
                .withProgress(p -> {
                    if (p.outputsWritten() > 0) {
                        Thread.currentThread().interrupt(); // as the engine does to close promptly
                    }
                });
        try {
            // InterruptedIOException from the job's own check between rows, or ClosedByInterruptException
            // when the interrupt lands in a FileChannel write: either way an IOException, and cleanup.
            IOException e = assertThrows(IOException.class, () -> job.run(List.of(s), 1, true));
            assertTrue(e instanceof InterruptedIOException
                    || e instanceof java.nio.channels.ClosedByInterruptException, e.toString());
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt is left for the caller (and cleared here)");
        }
        assertEquals(1, SegmentFiles.listFiles(dir).size(), "outputs written before the interrupt are gone");
    }

    @Test
    void theDirectoryIsSyncedOnceAfterTheOutputsAreForced() throws Exception {
        List<String> events = new ArrayList<>();
        ForwardingFileLayer recording = new ForwardingFileLayer(SegmentFiles.LOCAL) {
            @Override
            public WritableFile create(Path file) throws IOException {
                events.add("create");
                return super.create(file);
            }

            @Override
            protected void beforeForce(Path file) {
                events.add("force");
            }

            @Override
            public void syncDirectory(Path d) throws IOException {
                events.add("sync " + d.getFileName());
                super.syncDirectory(d);
            }
        };
        List<IntentVersion> rows = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            rows.add(IntentVersion.put(i + 1, intents.next()));
        }
        rows.sort((x, y) -> x.id().compareTo(y.id()));
        SegmentReader s = input(1, DIM, rows);
        CompactionResult r = new CompactionJob(recording,
                CompactionJobOptions.defaults(EmbeddingType.F32).withTargetOutputBytes(8_000),
                ids::getAndIncrement, id -> SegmentFiles.path(dir, id)).run(List.of(s), 1, true);
        int n = r.outputs().size();
        assertTrue(n > 1);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.addAll(List.of("create", "force", "force")); // bytes, then the cleared is_partial
        }
        expected.add("sync " + dir.getFileName());
        assertEquals(expected, events);
    }

    private static SegmentMeta meta(long id, SegmentReader r) {
        return new SegmentMeta(id, 0, r.fileSize(), r.rowCount(), r.footer().tombstoneCount(), r.footer().minTimestamp(), r.footer().maxTimestamp(),
                r.footer().minSequence(), r.footer().maxSequence(), false);
    }
}
