package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import dev.tala.wal.WalFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From a mutation audit, the edges of verify's and recovery's verdicts: a damaged last MANIFEST
 * edit that listed a segment of one record, with WAL records after it (the hole in the sequences
 * is that one record, so the segment's newest sequence is the hole's first: it is still the
 * edit's segment); a crash's torn edit with nothing missing; housekeeping that is no repair.
 */
class VerdictEdgesTest {
    static final int DIM = 8;

    @TempDir
    Path dir;

    private static Options options() {
        return Options.builder().dimension(DIM).memtableBytes(64 * 1024).durability(Durability.none()).build();
    }

    @Test
    void aDamagedEditListingAOneRecordSegmentIsCalledDamaged() throws IOException {
        RandomIntents gen = new RandomIntents(3, DIM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(gen.next());
            db.flush();
        }
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < 5; i++) {
                db.put(gen.next());
            }
        }
        Path segment = RecoveryProtocolTest.onlySegment(dir);
        DamagedLastEdit.flipABit(dir);
        DamagedLastEdit.assertVerifyCallsItDamaged(dir, segment);
    }

    /**
     * verify replays the WAL twice: skipping damage, to list all of it, and as a default open
     * does, for that open's verdict. Only the second can name a hole (sequences in no listed
     * segment and no WAL file): skipping reports one as a skipped range and goes on. So the hole
     * that makes an unlisted segment the damaged edit's is the open's, and so is the one verify
     * lists; the skipping replay said the same thing with its place written twice and without
     * the refusal. (From a mutation audit: taking the hole from the first replay let every test
     * pass.) Here only the hole tells: the segment's newest sequence, 3, is below what the WAL
     * reaches, 8, so the check against the WAL's reach alone would say the open sets it aside.
     */
    @Test
    void theHoleThatMakesASegmentTheDamagedEditsIsTheOneADefaultOpenRefusesAt() throws IOException {
        RandomIntents gen = new RandomIntents(6, DIM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < 3; i++) {
                db.put(gen.next());
            }
            db.flush();
        }
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < 5; i++) {
                db.put(gen.next());
            }
        }
        Path segment = RecoveryProtocolTest.onlySegment(dir);
        List<Path> walFiles;
        try (var files = Files.list(new DatabaseLayout(dir).walDir())) {
            walFiles = files.toList();
        }
        assertEquals(1, walFiles.size(), "the second open's WAL file only: " + walFiles);
        Path wal = walFiles.getFirst();
        DamagedLastEdit.flipABit(dir);

        DamagedLastEdit.assertVerifyCallsItDamaged(dir, segment);
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        assertEquals(3, verify.problems().size(), "the edit, the hole, the segment: " + verify.problems());
        List<VerifyReport.Problem> inWal = verify.problems().stream()
                .filter(p -> p.file().equals(wal.toString())).toList();
        assertEquals(List.of(new VerifyReport.Problem(wal.toString(), WalFormat.FILE_HEADER_BYTES, "the first record,"
                + " sequence 4, does not follow the MANIFEST's last sequence 0: sequences 1..3 are in no segment and no"
                + " WAL file (the MANIFEST lost edits, or WAL files are missing) (a default open refuses this)")), inWal);
        assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(segment.toString())
                && p.what().contains("where 1..3 are in no listed segment and no WAL file")), verify.problems().toString());
    }

    /** A crash's torn edit (bytes after the last whole edit, nothing missing) is called torn, not damaged. */
    @Test
    void aTornTailWithNothingMissingIsCalledTorn() throws IOException {
        RandomIntents gen = new RandomIntents(4, DIM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(gen.next());
            db.flush();
            db.put(gen.next());
        }
        Path manifest = new DatabaseLayout(dir).manifestFile();
        Files.write(manifest, new byte[5], java.nio.file.StandardOpenOption.APPEND);
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(manifest.toString())
                && p.what().equals("torn last edit (5 bytes); the next open drops it")), verify.problems().toString());
    }

    /** Deleting a leftover temporary file is housekeeping, not a repair: the recovery is still clean. */
    @Test
    void aDeletedTemporaryFileLeavesTheRecoveryClean() throws IOException {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(new RandomIntents(5, DIM).next());
        }
        Files.write(dir.resolve("MANIFEST.tmp"), new byte[] {9, 9, 9});
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertTrue(db.recoveryReport().actions().stream()
                    .anyMatch(a -> a.kind() == dev.tala.recovery.RecoveryReport.Action.Kind.DELETED_TEMPORARY_FILE),
                    db.recoveryReport().summary());
            assertTrue(db.recoveryReport().isClean(), db.recoveryReport().summary());
        }
    }
}
