package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.IntentVersion;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fails in the middle of a compaction: the job must delete every output it created,
 * rethrow, and leave the inputs exactly as they were.
 */
class FailureCleanupTest {
    private static final int DIM = 16;
    /** Small enough that the inputs give several outputs, so failures can hit a later one. */
    private static final long TARGET_BYTES = 30_000;

    @TempDir
    Path dir;

    private final List<SegmentReader> inputs = new ArrayList<>();
    private final Map<Path, byte[]> inputDigests = new HashMap<>();

    enum FailurePoint {
        /** The first append of the first output. */
        FIRST_WRITE,
        /** Part-way through the bytes of a later output. */
        MID_LATER_OUTPUT,
        /** The force of the second output. */
        SECOND_FORCE,
        /** The final directory sync, after every output was complete. */
        DIRECTORY_SYNC
    }

    /** Fails the chosen operation once; everything else goes to the real file system. */
    static final class FailingLayer extends ForwardingFileLayer {
        private final FailurePoint point;
        private final long failAfterBytes;
        private long written;
        private int forces;

        FailingLayer(FailurePoint point, long failAfterBytes) {
            super(SegmentFiles.LOCAL);
            this.point = point;
            this.failAfterBytes = failAfterBytes;
        }

        @Override
        protected void beforeWrite(Path file, long bytes) throws IOException {
            written += bytes;
            if (point == FailurePoint.FIRST_WRITE || (point == FailurePoint.MID_LATER_OUTPUT
                    && written > failAfterBytes)) {
                throw new IOException("injected: write failed on " + file.getFileName());
            }
        }

        @Override
        protected void beforeForce(Path file) throws IOException {
            if (point == FailurePoint.SECOND_FORCE && ++forces == 3) { // two forces per output
                throw new IOException("injected: fsync failed on " + file.getFileName());
            }
        }

        @Override
        public void syncDirectory(Path d) throws IOException {
            if (point == FailurePoint.DIRECTORY_SYNC) {
                throw new IOException("injected: directory sync failed on " + d);
            }
            super.syncDirectory(d);
        }
    }

    @BeforeEach
    void writeInputs() throws Exception {
        RandomIntents intents = new RandomIntents(3, DIM);
        long sequence = 1;
        List<List<IntentVersion>> oldestFirst = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            TreeMap<dev.tala.core.model.IntentId, IntentVersion> rows = new TreeMap<>();
            for (int i = 0; i < 120; i++) {
                var id = i % 4 == 0 ? intents.knownId() : intents.newId();
                rows.put(id, i % 9 == 0 ? IntentVersion.tombstone(id, sequence++)
                        : IntentVersion.put(sequence++, intents.next(id)));
            }
            oldestFirst.add(new ArrayList<>(rows.values()));
        }
        for (int s = oldestFirst.size() - 1; s >= 0; s--) {
            SegmentReader r = SegmentFiles.writeInput(dir, s + 1, DIM, EmbeddingType.F32, oldestFirst.get(s));
            inputs.add(r);
            inputDigests.put(r.path(), digest(r.path()));
        }
    }

    @AfterEach
    void closeInputs() {
        SegmentFiles.closeAll(inputs);
    }

    @ParameterizedTest
    @EnumSource(FailurePoint.class)
    void aFailedCompactionLeavesOnlyItsInputs(FailurePoint point) throws Exception {
        List<Path> before = SegmentFiles.listFiles(dir);
        // A successful run first, on a healthy layer, tells how many outputs there are and how big.
        CompactionResult healthy = job(SegmentFiles.LOCAL, 500).run(inputs, 1, false);
        assertTrue(healthy.outputs().size() >= 3, "needs several outputs, got " + healthy.outputs().size());
        for (var o : healthy.outputs()) {
            Files.delete(o.path());
        }
        long firstOutputBytes = healthy.outputs().getFirst().fileSize();

        FailingLayer failing = new FailingLayer(point, firstOutputBytes + 1000);
        IOException e = assertThrows(IOException.class, () -> job(failing, 900).run(inputs, 1, false));
        assertTrue(e.getMessage().startsWith("injected"), e.getMessage());

        assertEquals(before, SegmentFiles.listFiles(dir), "only the inputs remain");
        for (SegmentReader r : inputs) {
            r.verify();
            assertArrayEquals(inputDigests.get(r.path()), digest(r.path()), "input " + r.path() + " unchanged");
        }
        // And the inputs still compact correctly afterwards.
        CompactionResult retry = job(SegmentFiles.LOCAL, 1300).run(inputs, 1, false);
        assertEquals(healthy.stats().outputRows(), retry.stats().outputRows());
    }

    private CompactionJob job(dev.tala.core.io.FileLayer layer, long firstId) {
        AtomicLong ids = new AtomicLong(firstId);
        return new CompactionJob(layer, CompactionJobOptions.defaults(EmbeddingType.F32)
                .withTargetOutputBytes(TARGET_BYTES), ids::getAndIncrement, id -> SegmentFiles.path(dir, id));
    }

    private static byte[] digest(Path file) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
    }
}
