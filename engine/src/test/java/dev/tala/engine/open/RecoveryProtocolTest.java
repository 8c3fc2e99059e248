package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.io.ReadableFile;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.RecoveryReport;
import dev.tala.recovery.VerifyReport;
import dev.tala.recovery.RecoveryReport.Action.Kind;
import dev.tala.segment.SegmentHeader;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.format.TbfFormat;
import dev.tala.wal.Durability;
import dev.tala.wal.WalFormat;
import dev.tala.wal.WalRecoveryMode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open protocol's repairs of the segment directory (docs/RECOVERY.md): a segment flagged
 * is_partial or cut inside its header is deleted, a complete segment the MANIFEST does not list
 * is moved to DIR/lost/ rather than deleted, each is reported with its reason, the report times
 * every step, the live data is untouched, and the next open is clean.
 */
class RecoveryProtocolTest {
    static final int DIM = 8;

    @TempDir
    Path tmp;

    private static Options options() {
        return Options.builder().dimension(DIM).memtableBytes(64 * 1024).durability(Durability.none()).build();
    }

    /** A database with one flushed segment holding {@code count} intents; returns them. */
    private static List<Intent> fill(Path dir, long seed, int count) {
        RandomIntents gen = new RandomIntents(seed, DIM);
        List<Intent> written = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < count; i++) {
                Intent x = gen.next();
                db.put(x);
                written.add(x);
            }
            db.flush();
        }
        return written;
    }

    static Path onlySegment(Path dir) throws IOException {
        try (var files = Files.list(new DatabaseLayout(dir).segmentDir())) {
            List<Path> all = files.toList();
            assertEquals(1, all.size(), "one segment in " + dir + ": " + all);
            return all.getFirst();
        }
    }

    /**
     * Files named with numbers past {@link DatabaseLayout#MAX_FILE_NUMBER} are not ours and are
     * left alone. Counted as ours, a stray segment name near the end of the long range set the
     * next file number there, and the next memtable switch overflowed it: writes failed with a
     * stack trace naming neither file, open after open.
     */
    @Test
    void aStrayFileNamedNearTheEndOfTheNumberRangeIsLeftAlone() throws IOException {
        Path dir = tmp.resolve("db");
        List<Intent> live = fill(dir, 3, 20);
        DatabaseLayout layout = new DatabaseLayout(dir);
        Path straySegment = layout.segmentDir().resolve("09223372036854775806.tbf");
        Path strayWal = layout.walDir().resolve("09223372036854775805.wal");
        byte[] junk = new byte[300];
        new java.util.Random(5).nextBytes(junk);
        Files.write(straySegment, junk);
        Files.write(strayWal, junk);
        RandomIntents gen = new RandomIntents(4, DIM);
        for (int round = 0; round < 2; round++) {
            try (TalaDB db = TalaDB.open(dir, options())) {
                assertTrue(db.recoveryReport().actions().isEmpty(), db.recoveryReport().summary());
                for (int i = 0; i < 300; i++) { // several memtable switches, each a new WAL file
                    Intent x = gen.next();
                    db.put(x);
                    live.add(x);
                }
                db.flush();
            }
        }
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (Intent x : live) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
        }
        assertTrue(Files.exists(straySegment) && Files.exists(strayWal), "foreign files stay where they are");
        assertTrue(DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout).isClean());
    }

    @Test
    void strayAndPartialSegmentsAreRepairedAndReported() throws IOException {
        Path dir = tmp.resolve("db");
        List<Intent> live = fill(dir, 1, 50);
        Path other = tmp.resolve("other");
        List<Intent> stray = fill(other, 2, 30);
        DatabaseLayout layout = new DatabaseLayout(dir);
        Path foreign = onlySegment(other);

        // A complete segment nobody listed (say, copied in by hand, or a MANIFEST edit lost).
        Path unlisted = layout.segmentFile(900);
        Files.copy(foreign, unlisted);
        // A segment whose flush died before it cleared is_partial.
        Path partial = layout.segmentFile(901);
        Files.copy(foreign, partial);
        SegmentHeader header = SegmentReader.readHeader(LocalFileLayer.INSTANCE, partial);
        try (RandomAccessFile f = new RandomAccessFile(partial.toFile(), "rw")) {
            f.write(header.withFlags(header.flags() | TbfFormat.FLAG_IS_PARTIAL).encode());
        }
        // A segment whose write died inside the header.
        Path cut = layout.segmentFile(902);
        Files.write(cut, Files.readAllBytes(foreign), java.nio.file.StandardOpenOption.CREATE_NEW);
        try (RandomAccessFile f = new RandomAccessFile(cut.toFile(), "rw")) {
            f.setLength(100);
        }

        // Junk carrying a segment's name: set aside too, but not called a complete segment.
        Path junk = layout.segmentFile(903);
        byte[] noise = new byte[3000];
        new java.util.Random(9).nextBytes(noise);
        Files.write(junk, noise);

        try (TalaDB db = TalaDB.open(dir, options())) {
            RecoveryReport report = db.recoveryReport();
            assertFalse(report.isClean(), report.summary());
            assertEquals(List.of(Kind.MOVED_TO_LOST), kinds(report, unlisted), report.summary());
            assertTrue(reason(report, unlisted).startsWith("a complete segment the MANIFEST does not list"),
                    report.summary());
            assertEquals(List.of(Kind.MOVED_TO_LOST), kinds(report, junk), report.summary());
            assertTrue(reason(report, junk).contains("does not read as one (") && reason(report, junk)
                    .contains(junk.toString()), report.summary());
            assertEquals(List.of(Kind.DELETED_PARTIAL_SEGMENT), kinds(report, partial), report.summary());
            assertEquals(List.of(Kind.DELETED_PARTIAL_SEGMENT), kinds(report, cut), report.summary());
            assertTrue(reason(report, partial).contains("is_partial"), report.summary());
            assertFalse(report.steps().isEmpty(), "the report times its steps");
            assertTrue(report.steps().stream().allMatch(s -> !s.took().isNegative()), report.summary());
            assertEquals(1, report.liveSegments());

            for (Intent x : live) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
            for (Intent x : stray) {
                assertEquals(Optional.empty(), db.get(x.id()), "a stray segment's rows are not served");
            }
        }
        assertFalse(Files.exists(unlisted));
        assertFalse(Files.exists(partial));
        assertFalse(Files.exists(cut));
        Path kept = layout.lostDir().resolve(unlisted.getFileName());
        assertTrue(Files.exists(kept), "the unlisted segment is kept for inspection in lost/");
        assertEquals(Files.size(foreign), Files.size(kept));

        try (TalaDB db = TalaDB.open(dir, options())) {
            assertTrue(db.recoveryReport().isClean(), db.recoveryReport().summary());
            assertEquals(live.size(), db.stats().intents());
        }
    }

    /**
     * An open that fails on a listed segment changes nothing: the unlisted segment that an
     * operator may need to repair the MANIFEST stays where it was, and the error names it.
     */
    @Test
    void anOpenThatFailsOnAMissingListedSegmentMovesNothingAside() throws IOException {
        Path dir = tmp.resolve("db");
        fill(dir, 1, 50);
        Path listed = onlySegment(dir);
        Path other = tmp.resolve("other");
        fill(other, 2, 30);
        DatabaseLayout layout = new DatabaseLayout(dir);
        Path unlisted = layout.segmentFile(900);
        Files.copy(onlySegment(other), unlisted);
        Files.delete(listed);

        CorruptionException e = assertThrows(CorruptionException.class, () -> TalaDB.open(dir, options()));
        assertTrue(e.getMessage().contains("is missing"), e.getMessage());
        assertTrue(e.getMessage().contains("does not list are present and were left in place: [900]"), e.getMessage());
        assertTrue(Files.exists(unlisted), "the unlisted segment stays in segments/");
        assertFalse(Files.exists(layout.lostDir()), "nothing was moved to lost/");
    }

    /**
     * The recovery modes that drop intact-looking data (skip-corrupted, point-in-time) name
     * what they dropped, with file and offset, and keep the WAL file as it was in lost/.
     */
    @Test
    void skippingOrStoppingAtWalDamageNamesItAndKeepsACopyOfTheFile() throws IOException {
        Path original = tmp.resolve("db");
        RandomIntents gen = new RandomIntents(5, DIM);
        List<Intent> written = new ArrayList<>();
        Options big = options().toBuilder().memtableBytes(64L << 20).build();
        try (TalaDB db = TalaDB.open(original, big)) {
            for (int i = 0; i < 5; i++) {
                Intent x = gen.next();
                db.put(x);
                written.add(x);
            }
        }
        Path wal;
        try (var files = Files.list(new DatabaseLayout(original).walDir())) {
            wal = files.filter(p -> DatabaseLayout.walNumber(p).isPresent()).max(Path::compareTo).orElseThrow();
        }
        byte[] intact = Files.readAllBytes(wal);
        // A torn last write after the records too, which both modes cut: the copy keeps it.
        byte[] damaged = java.util.Arrays.copyOf(intact, intact.length + 7);
        java.util.Arrays.fill(damaged, intact.length, damaged.length, (byte) 0x5A);
        damaged[intact.length / 2] ^= 0x10; // inside a middle record
        Files.write(wal, damaged);

        for (WalRecoveryMode mode : List.of(WalRecoveryMode.SKIP_CORRUPTED, WalRecoveryMode.POINT_IN_TIME)) {
            Path dir = tmp.resolve(mode.name());
            FileTrees.copy(original, dir);
            Path walHere = dir.resolve(original.relativize(wal));
            // What a crash in the middle of an earlier copy into lost/ leaves: removed, then copied anew.
            Path partialCopy = new DatabaseLayout(dir).lostDir().resolve(walHere.getFileName() + ".tmp");
            Files.createDirectories(partialCopy.getParent());
            Files.write(partialCopy, new byte[] {1, 2, 3});
            try (TalaDB db = TalaDB.open(dir, big.toBuilder().recoveryMode(mode).build())) {
                RecoveryReport report = db.recoveryReport();
                boolean skip = mode == WalRecoveryMode.SKIP_CORRUPTED;
                assertEquals(skip ? List.of(Kind.TRUNCATED_WAL_TAIL, Kind.SKIPPED_WAL_RECORD) : List.of(Kind.TRUNCATED_WAL_TAIL),
                        kinds(report, walHere), report.summary());
                Kind named = skip ? Kind.SKIPPED_WAL_RECORD : Kind.TRUNCATED_WAL_TAIL;
                String why = report.actions().stream().filter(a -> a.kind() == named).findFirst().orElseThrow().reason();
                assertTrue(why.contains("offset"), why);
                assertTrue(mode == WalRecoveryMode.SKIP_CORRUPTED || why.contains("point-in-time stop"), why);
                Path copy = new DatabaseLayout(dir).lostDir().resolve(walHere.getFileName());
                assertTrue(why.contains(copy.toString()), why);
                org.junit.jupiter.api.Assertions.assertArrayEquals(damaged, Files.readAllBytes(copy),
                        "lost/ keeps the file as it was");
                assertEquals(Optional.of(written.getFirst()), db.get(written.getFirst().id()));
                assertEquals(mode == WalRecoveryMode.SKIP_CORRUPTED, db.get(written.getLast().id()).isPresent(),
                        "records after the damage are kept only when skipping");
                assertEquals(List.of(Kind.DELETED_TEMPORARY_FILE), kinds(report, partialCopy), report.summary());
                assertFalse(Files.exists(partialCopy));
            }
        }
    }

    /** Opens that write nothing add no WAL file, though each keeps the unflushed ones it replayed. */
    @Test
    void opensThatWriteNothingLeaveNoEmptyWalFiles() throws IOException {
        Path dir = tmp.resolve("db");
        Options big = options().toBuilder().memtableBytes(64L << 20).build();
        Intent x = new RandomIntents(8, DIM).next();
        try (TalaDB db = TalaDB.open(dir, big)) {
            db.put(x);
        }
        DatabaseLayout layout = new DatabaseLayout(dir);
        List<Path> before;
        try (var files = Files.list(layout.walDir())) {
            before = files.sorted().toList();
        }
        for (int i = 0; i < 5; i++) {
            try (TalaDB db = TalaDB.open(dir, big)) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
        }
        try (var files = Files.list(layout.walDir())) {
            assertEquals(before, files.sorted().toList());
        }
    }

    /**
     * Point in time stopping at a damaged header of a WAL file below the newest: that file is
     * kept in lost/ and deleted (a header with no records after it cannot be cut to), the files
     * after it move to lost/, and the next open in the default mode is clean.
     */
    @Test
    void aPointInTimeStopInALaterFilesHeaderKeepsThatFileInLostAndDeletesIt() throws IOException {
        Path dir = tmp.resolve("db");
        DatabaseLayout layout = new DatabaseLayout(dir);
        Options big = options().toBuilder().memtableBytes(64L << 20).build();
        List<Intent> written = oneRecordPerOpen(dir, big, new RandomIntents(31, DIM), 3);
        List<Path> wals = walFiles(dir);
        assertEquals(3, wals.size(), wals.toString());
        Path middle = wals.get(1);
        byte[] damaged = Files.readAllBytes(middle);
        damaged[WalFormat.FILE_HEADER_BYTES - 1] ^= 0x01;
        Files.write(middle, damaged);

        CorruptionException refused = assertThrows(CorruptionException.class, () -> TalaDB.open(dir, big));
        assertEquals(middle.toString(), refused.file());

        try (TalaDB db = TalaDB.open(dir, big.toBuilder().recoveryMode(WalRecoveryMode.POINT_IN_TIME).build())) {
            RecoveryReport report = db.recoveryReport();
            assertEquals(List.of(Kind.TRUNCATED_WAL_TAIL), kinds(report, middle), report.summary());
            String why = reason(report, middle);
            assertTrue(why.startsWith("deleted: its header is not intact"), why);
            Path copy = layout.lostDir().resolve(middle.getFileName());
            assertTrue(why.contains(copy.toString()), why);
            org.junit.jupiter.api.Assertions.assertArrayEquals(damaged, Files.readAllBytes(copy),
                    "lost/ keeps the file as it was");
            assertEquals(List.of(Kind.DROPPED_WAL_AFTER_STOP), kinds(report, wals.get(2)), report.summary());
            assertTrue(Files.exists(layout.lostDir().resolve(wals.get(2).getFileName())));
            assertFalse(Files.exists(middle));
            assertEquals(Optional.of(written.get(0)), db.get(written.get(0).id()));
            assertEquals(Optional.empty(), db.get(written.get(1).id()));
            assertEquals(Optional.empty(), db.get(written.get(2).id()));
        }
        try (TalaDB db = TalaDB.open(dir, big)) {
            assertTrue(db.recoveryReport().actions().isEmpty(), db.recoveryReport().summary());
            assertEquals(Optional.of(written.get(0)), db.get(written.get(0).id()));
        }
        assertTrue(DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout).isClean());
    }

    /**
     * FORMAT.md, skip-corrupted: "the damaged bytes are skipped up to the next intact record".
     * A damaged header of an older WAL file ended replay of that file: its intact records were
     * dropped without a word, and the sequence hole they left was blamed on the file before it.
     */
    @Test
    void skipCorruptedReadsTheRecordsAfterADamagedFileHeader() throws IOException {
        Path dir = tmp.resolve("db");
        DatabaseLayout layout = new DatabaseLayout(dir);
        Options big = options().toBuilder().memtableBytes(64L << 20).build();
        List<Intent> written = oneRecordPerOpen(dir, big, new RandomIntents(37, DIM), 3);
        List<Path> wals = walFiles(dir);
        assertEquals(3, wals.size(), wals.toString());
        Path middle = wals.get(1);
        byte[] damaged = Files.readAllBytes(middle);
        damaged[1] ^= 0x10; // the magic
        Files.write(middle, damaged);

        try (TalaDB db = TalaDB.open(dir, big.toBuilder().recoveryMode(WalRecoveryMode.SKIP_CORRUPTED).build())) {
            RecoveryReport report = db.recoveryReport();
            assertEquals(List.of(Kind.SKIPPED_WAL_RECORD), kinds(report, middle), report.summary());
            assertTrue(reason(report, middle).startsWith(WalFormat.FILE_HEADER_BYTES + " damaged bytes at offset 0"),
                    reason(report, middle));
            for (Intent x : written) {
                assertEquals(Optional.of(x), db.get(x.id()), report.summary());
            }
        }
        try (TalaDB db = TalaDB.open(dir, big)) {
            assertTrue(db.recoveryReport().actions().isEmpty(), db.recoveryReport().summary());
            for (Intent x : written) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
        }
        assertTrue(DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout).isClean());
    }

    /**
     * An open whose replay adds nothing retires the WAL files it replayed; one that recycles
     * files renames them, and retiring a file recovery had already deleted (a header-less newest
     * file: 0 bytes, a torn header) or moved to lost/ (after a point-in-time stop) failed the
     * first open after the crash with "does not exist". Each such open must succeed, and the one
     * after it must find nothing to repair.
     */
    @Test
    void anOpenThatRecyclesWalFilesRetiresOnlyTheFilesRecoveryKept() throws IOException {
        Options recycling = options().toBuilder().walRecycleFiles(2).memtableBytes(64L << 20).build();
        for (String damage : List.of("empty newest file", "torn header", "point-in-time stop at the first record")) {
            Path dir = tmp.resolve(damage.replace(' ', '-'));
            DatabaseLayout layout = new DatabaseLayout(dir);
            RandomIntents gen = new RandomIntents(41, DIM);
            Intent flushed = gen.next();
            try (TalaDB db = TalaDB.open(dir, recycling)) {
                db.put(flushed);
                db.flush();
            }
            Options reopen = recycling;
            switch (damage) {
                case "empty newest file" -> Files.createFile(layout.walFile(999));
                case "torn header" -> Files.write(layout.walFile(999), new byte[] {'T', 'W', 'A', 'L', 1, 0, 0, 0});
                default -> {
                    // Two more opens leave two WAL files of one record each; the older one's
                    // record is damaged, so the stop is before anything replays.
                    oneRecordPerOpen(dir, recycling, gen, 2);
                    List<Path> wals = walFiles(dir);
                    byte[] first = Files.readAllBytes(wals.getFirst());
                    first[WalFormat.FILE_HEADER_BYTES + 30] ^= 0x04;
                    Files.write(wals.getFirst(), first);
                    reopen = recycling.toBuilder().recoveryMode(WalRecoveryMode.POINT_IN_TIME).build();
                }
            }
            try (TalaDB db = TalaDB.open(dir, reopen)) {
                assertEquals(Optional.of(flushed), db.get(flushed.id()), damage);
            }
            try (TalaDB db = TalaDB.open(dir, recycling)) {
                assertTrue(db.recoveryReport().actions().isEmpty(), damage + ": " + db.recoveryReport().summary());
                assertEquals(Optional.of(flushed), db.get(flushed.id()), damage);
            }
        }
    }

    /**
     * Opens {@code dir} {@code opens} times and puts one intent each time; each open replays the
     * WAL files into its memtable, keeps them, and starts a new one. Returns the intents.
     */
    static List<Intent> oneRecordPerOpen(Path dir, Options options, RandomIntents gen, int opens) {
        List<Intent> written = new ArrayList<>();
        for (int i = 0; i < opens; i++) {
            try (TalaDB db = TalaDB.open(dir, options)) {
                Intent x = gen.next();
                db.put(x);
                written.add(x);
            }
        }
        return written;
    }

    /** The numbered WAL files of {@code dir}, oldest first. */
    static List<Path> walFiles(Path dir) throws IOException {
        try (var files = Files.list(new DatabaseLayout(dir).walDir())) {
            return files.filter(p -> DatabaseLayout.walNumber(p).isPresent()).sorted().toList();
        }
    }

    private static List<Path> spareWalFiles(Path dir) throws IOException {
        try (var files = Files.list(new DatabaseLayout(dir).walDir())) {
            return files.filter(p -> DatabaseLayout.isFreeWalFile(p) || DatabaseLayout.isReadyWalFile(p)).toList();
        }
    }

    /**
     * WAL files kept for reuse outlive a restart: a file whose zero-fill finished is the next
     * open's first WAL file; an open that keeps no files deletes them.
     */
    @Test
    void spareWalFilesAreReusedAfterAReopenOrDeletedWhenNoneAreKept() throws Exception {
        Path dir = tmp.resolve("db");
        Options recycling = options().toBuilder().walRecycleFiles(2).build();
        RandomIntents gen = new RandomIntents(9, DIM);
        List<Intent> written = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, recycling)) {
            while (db.stats().walFreeFiles() == 0) {
                Intent x = gen.next();
                db.put(x);
                written.add(x);
                Thread.sleep(written.size() % 200 == 0 ? 5 : 0); // let the flush and zero-fill run
            }
        }
        assertTrue(spareWalFiles(dir).stream().anyMatch(DatabaseLayout::isReadyWalFile),
                "a ready WAL file was left on disk: " + spareWalFiles(dir));
        Path copy = tmp.resolve("copy");
        try (var files = Files.walk(dir)) {
            for (Path p : files.toList()) {
                Files.copy(p, copy.resolve(dir.relativize(p).toString()));
            }
        }
        try (TalaDB db = TalaDB.open(copy, options())) {
            assertEquals(List.of(), spareWalFiles(copy), "an open that keeps no WAL files deletes spare ones");
            assertEquals(written.size(), db.stats().intents());
        }
        try (TalaDB db = TalaDB.open(dir, recycling)) {
            assertEquals(1, db.stats().walFilesReused(), "the open's WAL file is a ready one");
            for (int i = 0; i < 50; i++) {
                Intent x = gen.next();
                db.put(x);
                written.add(x);
            }
        }
        try (TalaDB db = TalaDB.open(dir, recycling)) {
            for (Intent x : written) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
        }
    }

    @Test
    void anEmptyWalFileLeftByADeathDuringItsCreationIsRemoved() throws IOException {
        // Found by 'tala crashtest': a child killed between creating a WAL file and writing its
        // header left a 0-byte newest file; the next open kept it and started a newer one, and
        // the open after that refused the database ("header incomplete, not the newest").
        Path dir = tmp.resolve("db");
        RandomIntents gen = new RandomIntents(3, DIM);
        List<Intent> written = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < 40; i++) {
                Intent x = gen.next();
                db.put(x);
                written.add(x); // left in the WAL: nothing is flushed
            }
        }
        DatabaseLayout layout = new DatabaseLayout(dir);
        Path empty = layout.walFile(999);
        Files.createFile(empty);

        for (int open = 1; open <= 3; open++) {
            try (TalaDB db = TalaDB.open(dir, options())) {
                if (open == 1) {
                    assertEquals(List.of(Kind.TRUNCATED_WAL_TAIL), kinds(db.recoveryReport(), empty),
                            db.recoveryReport().summary());
                }
                for (Intent x : written) {
                    assertEquals(Optional.of(x), db.get(x.id()), "open " + open);
                }
            }
            assertFalse(Files.exists(empty), "the empty WAL file is gone after open " + open);
            assertTrue(DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout).isClean(), "verify after open " + open);
        }
    }

    @Test
    void anEmptyWalFileBelowTheNewestIsReportedByVerifyAndRepairedBySkipping() throws IOException {
        // The state the bug above left behind, built by hand: records in WAL file 1, an empty
        // file 2, and a newer file 3 with a header and no records.
        Path dir = tmp.resolve("db");
        Intent kept = new RandomIntents(4, DIM).next();
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(kept);
        }
        DatabaseLayout layout = new DatabaseLayout(dir);
        try (var files = Files.list(layout.walDir())) {
            assertEquals(List.of(layout.walFile(1)), files.toList());
        }
        Path empty = layout.walFile(2);
        Files.createFile(empty);
        // File 1's header with file number 3 (a log that takes no record deletes its file at close).
        byte[] header = java.util.Arrays.copyOf(Files.readAllBytes(layout.walFile(1)), WalFormat.FILE_HEADER_BYTES);
        java.nio.ByteBuffer.wrap(header).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(8, 3);
        Files.write(layout.walFile(3), header);

        VerifyReport report = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout);
        assertFalse(report.isClean(), "verify agrees with the open below");
        assertTrue(report.problems().stream().anyMatch(p -> p.file().equals(empty.toString())), report.problems().toString());
        CorruptionException refused = assertThrows(CorruptionException.class, () -> TalaDB.open(dir, options()));
        assertEquals(empty.toString(), refused.file());

        // What docs/RECOVERY.md tells an operator to do: recover skipping what is damaged.
        try (TalaDB db = TalaDB.open(dir, options().toBuilder().recoveryMode(WalRecoveryMode.SKIP_CORRUPTED).build())) {
            assertEquals(Optional.of(kept), db.get(kept.id()));
        }
        assertFalse(Files.exists(empty));
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertEquals(Optional.of(kept), db.get(kept.id()));
        }
        assertTrue(DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout).isClean());
    }

    /**
     * One flipped bit in the MANIFEST's last edit, the flush that listed the only segment, after
     * that flush deleted its WAL files. The edit was once took for torn: the segment went to
     * lost/ and the database opened empty, its last sequence back at 0. Now the default and
     * absolute modes refuse and move nothing, with records in the WAL after it or not; a
     * lenient mode sets the segment aside and says so.
     */
    @Test
    void aDamagedLastManifestEditIsNotTakenForATornOneWhenTheWalNoLongerHoldsItsSegment() throws IOException {
        for (int walRecords : new int[] {0, 5}) {
            Path dir = tmp.resolve("db" + walRecords);
            List<Intent> flushed = fill(dir, 3, 20);
            RandomIntents more = new RandomIntents(4, DIM);
            try (TalaDB db = TalaDB.open(dir, options())) {
                for (int i = 0; i < walRecords; i++) {
                    db.put(more.next());
                }
            }
            Path segment = onlySegment(dir);
            DamagedLastEdit.flipABit(dir);
            // With records after it in the WAL, verify said the next open would remove the
            // segment or move it to lost/ (from an operator's audit): a default open refuses.
            DamagedLastEdit.assertVerifyCallsItDamaged(dir, segment);
            for (WalRecoveryMode strict : List.of(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL,
                    WalRecoveryMode.ABSOLUTE_CONSISTENCY)) {
                CorruptionException e = assertThrows(CorruptionException.class,
                        () -> TalaDB.open(dir, options().toBuilder().recoveryMode(strict).build()).close());
                assertTrue(e.getMessage().contains("MANIFEST"), e.getMessage());
                assertEquals(segment, onlySegment(dir), "nothing moved: " + e.getMessage());
                assertFalse(Files.exists(dir.resolve("lost")), e.getMessage());
                assertTrue(walRecords > 0 || e.getMessage().contains(segment.toString()), e.getMessage());
            }
            if (walRecords == 0) {
                try (TalaDB db = TalaDB.open(dir, options().toBuilder()
                        .recoveryMode(WalRecoveryMode.POINT_IN_TIME).build())) {
                    assertEquals(List.of(Kind.MOVED_TO_LOST), kinds(db.recoveryReport(), segment),
                            db.recoveryReport().summary());
                    assertEquals(0, db.stats().intents());
                }
                assertTrue(Files.exists(dir.resolve("lost").resolve(segment.getFileName())), "kept in lost/");
                assertEquals(20, flushed.size());
            }
        }
    }

    /**
     * One flipped bit in the MANIFEST's last edit, a compaction's, after the compaction deleted
     * its inputs. Without the edit the MANIFEST lists the inputs, whose files are gone, so every
     * open refuses, whatever its recovery mode, and moves nothing. verify called the edit torn,
     * one "the next open drops", and said the next open would set the compaction's output aside.
     */
    @Test
    void aDamagedCompactionEditWhoseInputsAreDeletedIsWhatEveryOpenRefuses() throws IOException {
        Path dir = tmp.resolve("db");
        Options merging = options().toBuilder().compactionMoves(false).backgroundCompaction(false).build();
        RandomIntents gen = new RandomIntents(6, DIM);
        List<Path> inputs = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, merging)) {
            Intent first = gen.next();
            db.put(first);
            db.put(gen.next());
            db.flush();
            inputs.add(onlySegment(dir));
            db.delete(first.id()); // an id both segments hold: the compaction merges them, no move
            db.put(gen.next());
            db.flush();
            try (var files = Files.list(new DatabaseLayout(dir).segmentDir())) {
                files.filter(p -> !inputs.contains(p)).forEach(inputs::add);
            }
            assertEquals(2, inputs.size(), inputs.toString());
            assertTrue(db.compact().isPresent());
        }
        Path output = onlySegment(dir);
        assertFalse(inputs.contains(output), "the inputs are deleted, the output is a new file");
        DamagedLastEdit.flipABit(dir);

        DamagedLastEdit.assertVerifyCallsItAFinishedCompaction(dir, inputs, output);
        for (WalRecoveryMode mode : WalRecoveryMode.values()) {
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> TalaDB.open(dir, merging.toBuilder().recoveryMode(mode).build()).close(), mode.toString());
            assertTrue(e.getMessage().contains("is missing"), e.getMessage());
            assertEquals(output, onlySegment(dir), "nothing moved: " + e.getMessage());
            assertFalse(Files.exists(dir.resolve("lost")), e.getMessage());
        }
    }

    /** A segment that cannot be read (permissions, a failing disk) is one finding of verify, not its end. */
    @Test
    void verifyListsAnUnreadableSegmentAndGoesOn() throws IOException {
        Path dir = tmp.resolve("db");
        fill(dir, 5, 10);
        Path segment = onlySegment(dir);
        FileLayer refusing = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public MappedRegion map(Path file) throws IOException {
                if (file.equals(segment)) {
                    throw new java.nio.file.AccessDeniedException(file.toString());
                }
                return super.map(file);
            }

            @Override
            public ReadableFile openForRead(Path file) throws IOException {
                if (file.equals(segment)) {
                    throw new java.nio.file.AccessDeniedException(file.toString());
                }
                return super.openForRead(file);
            }
        };
        VerifyReport verify = DatabaseVerifier.verify(refusing, new DatabaseLayout(dir));
        assertEquals(1, verify.problems().size(), verify.problems().toString());
        assertTrue(verify.problems().getFirst().what().contains("cannot be read"), verify.problems().toString());
        assertTrue(DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir)).problems().isEmpty());
    }

    private static List<Kind> kinds(RecoveryReport report, Path file) {
        return report.actions().stream().filter(a -> a.file().equals(file.toString()))
                .map(RecoveryReport.Action::kind).toList();
    }

    private static String reason(RecoveryReport report, Path file) {
        return report.actions().stream().filter(a -> a.file().equals(file.toString()))
                .map(RecoveryReport.Action::reason).findFirst().orElse("");
    }
}
