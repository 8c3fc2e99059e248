package dev.tala.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.DirectoryLock;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import dev.tala.recovery.VerifyReport.Problem;
import dev.tala.recovery.manifest.Manifest;
import dev.tala.recovery.manifest.ManifestState;
import dev.tala.wal.Durability;
import dev.tala.wal.WalFormat;
import dev.tala.wal.WalOp;
import dev.tala.wal.WalRecoveryMode;
import dev.tala.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    /**
     * Only the first put of another dimension is listed: an open refuses at it and reads no
     * further, and after a changed OPTIONS dimension every put in the WAL would be listed, one
     * line per record. Here two of three puts have the wrong dimension; the second is not named.
     */
    @Test
    void onlyTheFirstWalPutOfTheWrongDimensionIsReported() throws IOException {
        long firstWrongAt;
        try (WriteAheadLog wal = WriteAheadLog.create(fs, layout.walDir(), 1, 0, Durability.sync())) {
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(new RandomIntents(1, DIM).next()))));
            firstWrongAt = fs.size(layout.walFile(1));
            RandomIntents wrong = new RandomIntents(2, DIM / 2);
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(wrong.next()))));
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(wrong.next()))));
        }
        VerifyReport report = DatabaseVerifier.verify(fs, layout, OptionalInt.of(DIM));
        assertEquals(List.of(new Problem(layout.walFile(1).toString(), firstWrongAt, "holds an intent of embedding"
                + " dimension " + DIM / 2 + " (sequence 2), but OPTIONS says " + DIM + " (an open refuses this)")),
                report.problems());
    }

    /**
     * The newest WAL file holds no whole header: 0 bytes (a process killed between creating it
     * and writing its header), part of a header, or zeros (a reused file renamed before its
     * header was written). Every open deletes it, and reports it as a torn write (a read-only
     * open as one it would delete); verify said clean for the 0-byte file, and that the next open
     * truncates the others. It reports each where the open does, saying the file is deleted.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, WalFormat.FILE_HEADER_BYTES / 2, 4096})
    void aNewestWalFileWithoutAWholeHeaderIsReportedAsTheOpenReportsIt(int size) throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.create(fs, layout.walDir(), 1, 0, Durability.sync())) {
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(new RandomIntents(1, DIM).next()))));
        }
        Path newest = layout.walFile(2);
        byte[] header = Arrays.copyOf(Files.readAllBytes(layout.walFile(1)), WalFormat.FILE_HEADER_BYTES);
        Files.write(newest, size < header.length ? Arrays.copyOf(header, size) : new byte[size]);

        List<RecoveryReport.Action> repairs = readOnlyOpenRepairs();
        assertEquals(List.of(newest.toString()), repairs.stream().map(RecoveryReport.Action::file).toList(),
                repairs.toString());
        VerifyReport report = DatabaseVerifier.verify(fs, layout, OptionalInt.of(DIM));
        assertEquals(1, report.problems().size(), report.problems().toString());
        Problem problem = report.problems().getFirst();
        assertEquals(newest.toString(), problem.file(), problem.toString());
        assertEquals(0, problem.offset(), problem.toString());
        assertEquals("no intact file header (" + size + " bytes; a write cut short by a crash): the next open"
                + " deletes the file", problem.what());
    }

    /**
     * The last record of a WAL file that is not the newest is damaged, with nothing intact after
     * it in that file. Only the newest file can end in a torn write, so every strict open refuses
     * here; verify called it a torn tail the next open truncates (skipping replay sees it so), and
     * left out the open's refusal because it was at the same place.
     */
    @Test
    void aDamagedLastRecordOfAnOlderWalFileIsCalledWhatTheOpenRefuses() throws IOException {
        long lastRecordAt;
        try (WriteAheadLog wal = WriteAheadLog.create(fs, layout.walDir(), 1, 0, Durability.sync())) {
            RandomIntents gen = new RandomIntents(3, DIM);
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(gen.next()))));
            lastRecordAt = fs.size(layout.walFile(1));
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(gen.next()))));
            wal.rotate(2);
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(gen.next()))));
        }
        Path older = layout.walFile(1);
        byte[] bytes = Files.readAllBytes(older);
        bytes[bytes.length - 3] ^= 0x01;
        Files.write(older, bytes);

        // (Skipping also finds sequence 2 missing where the newest file starts: the damaged record held it.)
        VerifyReport report = DatabaseVerifier.verify(fs, layout, OptionalInt.of(DIM));
        List<Problem> inOlder = report.problems().stream().filter(p -> p.file().equals(older.toString())).toList();
        assertEquals(1, inOlder.size(), report.problems().toString());
        Problem problem = inOlder.getFirst();
        assertEquals(lastRecordAt, problem.offset(), problem.toString());
        assertTrue(problem.what().endsWith("(not the newest WAL file, so not a torn tail) (a default open refuses"
                + " this)"), problem.toString());
    }

    /**
     * The default open's refusal replaces what skipping said of the same place only: a file's
     * other findings stay. Here a put of the wrong dimension comes first in the file, and a
     * damaged record with an intact one after it (no torn tail) later; verify lists the put
     * where it is, and the damage once, as the refusal. Replacing the file's first finding
     * instead dropped the put and listed the damage twice.
     */
    @Test
    void theOpensRefusalReplacesOnlyWhatWasSaidOfItsOwnPlace() throws IOException {
        long wrongAt;
        long damagedAt;
        long intactAt;
        try (WriteAheadLog wal = WriteAheadLog.create(fs, layout.walDir(), 1, 0, Durability.sync())) {
            RandomIntents gen = new RandomIntents(4, DIM);
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(gen.next()))));
            wrongAt = fs.size(layout.walFile(1));
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(new RandomIntents(5, DIM / 2).next()))));
            damagedAt = fs.size(layout.walFile(1));
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(gen.next()))));
            intactAt = fs.size(layout.walFile(1));
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(gen.next()))));
        }
        Path file = layout.walFile(1);
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) intactAt - 3] ^= 0x01;
        Files.write(file, bytes);

        List<Problem> problems = DatabaseVerifier.verify(fs, layout, OptionalInt.of(DIM)).problems();
        assertEquals(List.of(wrongAt, damagedAt), problems.stream().map(Problem::offset).toList(), problems.toString());
        assertTrue(problems.get(0).what().startsWith("holds an intent of embedding dimension " + DIM / 2),
                problems.toString());
        assertTrue(problems.get(1).what().endsWith("(a default open refuses this)"), problems.toString());
    }

    /**
     * The counts verify prints ("clean: N files, B bytes checked"): the MANIFEST and each WAL
     * file are read and counted, with their sizes. No test held them, so verify could drop the
     * MANIFEST from them, or every size, and still pass.
     */
    @Test
    void theManifestAndEveryWalFileAreCountedWithTheirBytes() throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.create(fs, layout.walDir(), 1, 0, Durability.sync())) {
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(new RandomIntents(6, DIM).next()))));
        }
        VerifyReport report = DatabaseVerifier.verify(fs, layout, OptionalInt.of(DIM));
        assertTrue(report.isClean(), report.problems().toString());
        assertEquals(2, report.filesChecked());
        assertEquals(fs.size(layout.manifestFile()) + fs.size(layout.walFile(1)), report.bytesChecked());
    }

    /**
     * A WAL file that cannot be read fails both of verify's replays with the same error: it is
     * one finding, listed once, not once per replay.
     */
    @Test
    void anUnreadableWalFileIsListedOnce() throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.create(fs, layout.walDir(), 1, 0, Durability.sync())) {
            wal.awaitDurable(wal.append(List.of(new WalOp.Put(new RandomIntents(7, DIM).next()))));
        }
        Path unreadable = layout.walFile(1);
        FileLayer failing = new ForwardingFileLayer(fs) {
            @Override
            public MappedRegion map(Path file) throws IOException {
                if (file.equals(unreadable)) {
                    throw new IOException("injected: a failing disk");
                }
                return super.map(file);
            }
        };
        List<Problem> problems = DatabaseVerifier.verify(failing, layout, OptionalInt.of(DIM)).problems();
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.getFirst().what().contains(unreadable.toString()), problems.toString());
    }

    /** What a read-only open reports it would repair (RecoveryReport.Action#isRepair), run as that open runs it. */
    private List<RecoveryReport.Action> readOnlyOpenRepairs() {
        DirectoryLock notHeld = new DirectoryLock() {
            @Override
            public Path path() {
                return layout.lockFile();
            }

            @Override
            public void close() {
            }
        };
        try (DatabaseRecovery recovery = DatabaseRecovery.beginReadOnly(fs, layout,
                WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, notHeld, false)) {
            recovery.replayWal((record, walNumber, file, offset) -> { });
            return recovery.report(0).actions().stream().filter(RecoveryReport.Action::isRepair).toList();
        }
    }
}
