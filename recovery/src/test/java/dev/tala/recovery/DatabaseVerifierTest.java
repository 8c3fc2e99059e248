package dev.tala.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import dev.tala.recovery.VerifyReport.Problem;
import dev.tala.recovery.manifest.Manifest;
import dev.tala.recovery.manifest.ManifestState;
import dev.tala.wal.Durability;
import dev.tala.wal.WalOp;
import dev.tala.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What verify says of WAL files, built here record by record (no engine): each problem names
 * the file and offset an operator has to look at, and says what the next open does there.
 */
class DatabaseVerifierTest {
    static final int DIM = 8;
    final FileLayer fs = LocalFileLayer.INSTANCE;

    @TempDir
    Path dir;
    DatabaseLayout layout;

    /** An empty database as an open leaves it: an empty MANIFEST, no segment, no WAL file yet. */
    @BeforeEach
    void emptyDatabase() throws IOException {
        layout = new DatabaseLayout(dir);
        fs.createDirectories(layout.segmentDir());
        fs.createDirectories(layout.walDir());
        Manifest.create(fs, layout.manifestFile(), ManifestState.EMPTY, Manifest.DEFAULT_REWRITE_BYTES).close();
    }

    /**
     * A put of another dimension than OPTIONS gives, after one of the right dimension: verify
     * named the WAL directory at offset 0, which is no file, so an operator had nothing to look
     * at. It names the WAL file and the record's own offset (where it starts, past the first
     * record), as it does for every other damaged record.
     */
    @Test
    void aWalPutOfTheWrongDimensionIsReportedAtItsFileAndOffset() throws IOException {
        long secondRecordAt;
        try (WriteAheadLog wal = WriteAheadLog.create(fs, layout.walDir(), 1, 0, Durability.sync())) {
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(new RandomIntents(1, DIM).next()))));
            secondRecordAt = fs.size(layout.walFile(1));
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(new RandomIntents(2, DIM / 2).next()))));
        }
        VerifyReport report = DatabaseVerifier.verify(fs, layout, OptionalInt.of(DIM));
        assertEquals(List.of(new Problem(layout.walFile(1).toString(), secondRecordAt, "holds an intent of embedding"
                + " dimension " + DIM / 2 + " (sequence 2), but OPTIONS says " + DIM + " (an open refuses this)")),
                report.problems());
    }
}
