package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import dev.tala.wal.WalFormat;
import dev.tala.wal.WalRecoveryMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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

    /** {@code inSegment} intents flushed to one segment, then {@code inWal} more left in the next open's WAL. */
    private void segmentThenWal(long seed, int inSegment, int inWal) {
        RandomIntents gen = new RandomIntents(seed, DIM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < inSegment; i++) {
                db.put(gen.next());
            }
            db.flush();
        }
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < inWal; i++) {
                db.put(gen.next());
            }
        }
    }

    @Test
    void aDamagedEditListingAOneRecordSegmentIsCalledDamaged() throws IOException {
        segmentThenWal(3, 1, 5);
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
        segmentThenWal(6, 3, 5);
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

    /**
     * A listed segment whose header names another segment: every open refuses it while it opens
     * the listed segments, before it judges the unlisted ones (docs/RECOVERY.md, step 4: "an open
     * that fails here changes nothing"), so an unlisted segment beside it stays where it is.
     * verify says so of a listed segment that is missing, but of a misnamed one it still said
     * the next open removes the unlisted segment or moves it to lost/, which no open does.
     */
    @Test
    void anUnlistedSegmentBesideAMisnamedListedOneIsLeftInPlace() throws IOException {
        Options noCompaction = options().toBuilder().backgroundCompaction(false).build();
        List<Path> listed = flushTwice(noCompaction, 11);
        DatabaseLayout layout = new DatabaseLayout(dir);
        long secondId = DatabaseLayout.segmentId(listed.get(1)).orElseThrow();
        Path unlisted = layout.segmentFile(secondId + 100);
        Files.copy(listed.get(1), unlisted);
        Files.copy(listed.get(0), listed.get(1), StandardCopyOption.REPLACE_EXISTING);

        CorruptionException refused = assertThrows(CorruptionException.class, () -> TalaDB.open(dir, noCompaction));
        assertTrue(refused.getMessage().contains("header names segment"), refused.getMessage());
        assertTrue(Files.exists(unlisted), "the open left the unlisted segment in place");
        assertFalse(Files.exists(layout.lostDir()), "and moved nothing");

        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout);
        List<VerifyReport.Problem> said = verify.problems().stream()
                .filter(p -> p.file().equals(unlisted.toString())).toList();
        assertEquals(1, said.size(), verify.problems().toString());
        assertFalse(said.getFirst().what().contains("lost/"), "no open moves it: " + said.getFirst());
        assertTrue(said.getFirst().what().contains("left in place"), said.getFirst().toString());
    }

    /**
     * A listed segment renamed by hand: missing under its name, unlisted under the new one, and
     * the MANIFEST intact. Every open refuses the missing one and leaves the other in place, as
     * verify says; and with no damaged edit, verify must not guess that one listed the segment
     * (it does so only beside a torn edit, for a compaction's output whose inputs are missing).
     */
    @Test
    void aRenamedListedSegmentBlamesNoEdit() throws IOException {
        Options noCompaction = options().toBuilder().backgroundCompaction(false).build();
        List<Path> listed = flushTwice(noCompaction, 13);
        DatabaseLayout layout = new DatabaseLayout(dir);
        Path renamed = layout.segmentFile(DatabaseLayout.segmentId(listed.get(1)).orElseThrow() + 100);
        Files.move(listed.get(1), renamed);

        assertThrows(CorruptionException.class, () -> TalaDB.open(dir, noCompaction));
        assertTrue(Files.exists(renamed), "left in place");
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout);
        String all = verify.problems().toString();
        assertTrue(verify.problems().stream().noneMatch(p -> p.file().equals(layout.manifestFile().toString())),
                "the MANIFEST is intact: " + all);
        List<VerifyReport.Problem> ofRenamed = verify.problems().stream()
                .filter(p -> p.file().equals(renamed.toString())).toList();
        assertEquals(1, ofRenamed.size(), all);
        assertTrue(ofRenamed.getFirst().what().contains("left in place"), all);
        assertFalse(ofRenamed.getFirst().what().contains("edit"), "no edit is damaged here: " + all);
    }

    /**
     * A torn last edit beside a missing listed segment, with no complete unlisted segment that
     * the edit could have listed: nothing shows the edit was a finished one, so verify calls it
     * torn (one an open would drop), and says that every open refuses the database all the same.
     */
    @Test
    void aTornEditBesideAMissingSegmentAndNoUnlistedOneIsCalledTorn() throws IOException {
        Options noCompaction = options().toBuilder().backgroundCompaction(false).build();
        List<Path> listed = flushTwice(noCompaction, 17);
        Files.delete(listed.get(0));
        Files.delete(listed.get(1));
        Path manifest = DamagedLastEdit.flipABit(dir);

        for (WalRecoveryMode mode : WalRecoveryMode.values()) {
            assertThrows(CorruptionException.class,
                    () -> TalaDB.open(dir, noCompaction.toBuilder().recoveryMode(mode).build()).close(), mode.name());
        }
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        List<VerifyReport.Problem> ofManifest = verify.problems().stream()
                .filter(p -> p.file().equals(manifest.toString())).toList();
        assertEquals(1, ofManifest.size(), verify.problems().toString());
        String what = ofManifest.getFirst().what();
        assertTrue(what.startsWith("torn last edit (") && what.endsWith("an open refuses this in every recovery mode"),
                what);
        // Judged last, once the segments are known, but listed first, as the open reads the
        // MANIFEST first (and as verify listed it before it was split into methods).
        assertEquals(ofManifest.getFirst(), verify.problems().getFirst(), verify.problems().toString());
    }

    /** Two flushes of one intent each into a new database; returns the two segments, oldest first. */
    private List<Path> flushTwice(Options options, long seed) throws IOException {
        RandomIntents gen = new RandomIntents(seed, DIM);
        try (TalaDB db = TalaDB.open(dir, options)) {
            db.put(gen.next());
            db.flush();
            db.put(gen.next());
            db.flush();
        }
        try (var files = Files.list(new DatabaseLayout(dir).segmentDir())) {
            List<Path> segments = files.sorted().toList();
            assertEquals(2, segments.size(), segments.toString());
            return segments;
        }
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
