package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import dev.tala.core.io.fault.SimulatedCrashException;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.segment.SegmentFixtures.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The is_partial protocol: a segment is readable only once all of it, then its cleared header, is durable. */
class PartialWriteTest {
    @TempDir
    Path dir;

    private static final Shape SHAPE = new Shape(60, 16, EmbeddingType.BF16, true, 0.1, 3, true, 3);
    private final List<IntentVersion> versions = SegmentFixtures.randomVersions(SHAPE);
    private final SegmentWriteOptions options = SegmentFixtures.options(SHAPE);

    /** Mutating operations of one complete write with a {@code buffer}-byte writer buffer. */
    private long operationsOfAWrite(int buffer, boolean syncDirAfterCreate) throws IOException {
        Path sub = Files.createDirectories(dir.resolve("count"));
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(dir.resolve("count-stash"));
        FileLayer layer = syncDirAfterCreate ? new DirSyncingLayer(fault) : fault;
        new SegmentWriter(layer, buffer).write(sub.resolve("x.tbf"), options, versions);
        return fault.mutatingOperations();
    }

    @Test
    void aCrashBetweenTheForcesLeavesAPartialSegment() throws IOException {
        long total = operationsOfAWrite(SegmentWriter.DEFAULT_BUFFER_BYTES, false);
        assertEquals(5, total, "create, append, force, header rewrite, force");
        Path file = dir.resolve("partial.tbf");
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(dir.resolve("stash"));
        fault.crashAfter(3);
        assertThrows(SimulatedCrashException.class, () -> new SegmentWriter(fault).write(file, options, versions));
        assertTrue(fault.crashedAt().startsWith("write "), fault.crashedAt());

        CorruptionException refused = assertThrows(CorruptionException.class, () -> SegmentFixtures.open(file));
        assertTrue(refused.what().contains("partial"), refused.what());
        assertThrows(CorruptionException.class, () -> SegmentReader.readSummary(LocalFileLayer.INSTANCE, file));
        SegmentHeader header = SegmentReader.readHeader(LocalFileLayer.INSTANCE, file);
        assertTrue(header.isPartial());
        // Inspection tools may still look inside: everything but the header rewrite is there.
        try (SegmentReader reader = SegmentReader.open(LocalFileLayer.INSTANCE, file, SegmentOpenOption.ALLOW_PARTIAL)) {
            assertTrue(reader.header().isPartial());
            reader.verify();
            for (int row = 0; row < versions.size(); row++) {
                RoundTripPropertyTest.assertVersion(EmbeddingType.BF16, versions.get(row), reader.version(row));
            }
        }
        assertTrue(SegmentReader.readSummary(LocalFileLayer.INSTANCE, file, SegmentOpenOption.ALLOW_PARTIAL)
                .header().isPartial());
    }

    @Test
    void powerLossAtAnyPointLeavesNoFileARefusedFileOrTheWholeSegment() throws IOException {
        int buffer = 1024;
        int absent = 0;
        int refused = 0;
        int opened = 0;
        for (boolean syncDir : new boolean[] {false, true}) {
            long total = operationsOfAWrite(buffer, syncDir);
            assertTrue(total > 8, "the small buffer spreads the write over several appends: " + total);
            for (long k = 0; k <= total; k++) {
                for (PowerLossMode mode : PowerLossMode.values()) {
                    String label = "syncDir=" + syncDir + " k=" + k + " mode=" + mode;
                    Path sub = Files.createDirectories(dir.resolve("sweep-" + syncDir + "-" + k + "-" + mode));
                    Path file = sub.resolve("segment.tbf");
                    FaultInjectingFileLayer fault = new FaultInjectingFileLayer(dir.resolve("stash-" + syncDir + k + mode));
                    FileLayer layer = syncDir ? new DirSyncingLayer(fault) : fault;
                    fault.crashAfter(k);
                    boolean completed;
                    try {
                        new SegmentWriter(layer, buffer).write(file, options, versions);
                        completed = true;
                    } catch (SimulatedCrashException crash) {
                        completed = false;
                    }
                    assertEquals(k >= total, completed, label);
                    fault.powerLoss(mode, k);
                    if (!Files.exists(file)) {
                        assertFalse(syncDir && completed, label + ": a completed, directory-synced segment vanished");
                        absent++;
                        continue;
                    }
                    if (completed) {
                        try (SegmentReader reader = SegmentFixtures.open(file)) {
                            reader.verify();
                            assertEquals(versions.size(), reader.rowCount(), label);
                        }
                        opened++;
                    } else {
                        try (SegmentReader reader = SegmentFixtures.open(file)) {
                            // Only a power loss that keeps single sectors can keep the unforced
                            // clear of is_partial, and that is the last write: all it vouches for
                            // was forced before it.
                            assertEquals(PowerLossMode.LOST_SECTORS, mode, label + ": an incomplete segment opened");
                            reader.verify();
                            assertEquals(versions.size(), reader.rowCount(), label);
                            opened++;
                        } catch (CorruptionException e) {
                            refused++;
                        }
                    }
                }
            }
        }
        System.out.printf("power-loss sweep: %d absent, %d refused, %d complete%n", absent, refused, opened);
        assertTrue(absent > 0 && refused > 0 && opened > 0);
    }

    /** Makes each created file's directory entry durable at once, so power loss keeps the file and tests its content. */
    private static final class DirSyncingLayer extends ForwardingFileLayer {
        DirSyncingLayer(FileLayer inner) {
            super(inner);
        }

        @Override
        public WritableFile create(Path file) throws IOException {
            WritableFile out = inner.create(file);
            inner.syncDirectory(file.getParent());
            return out;
        }
    }
}
