package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
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
