package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.DatabaseLockedException;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import dev.tala.wal.WalFormat;
import dev.tala.wal.WalRecoveryMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only open against the writable open of the same files, over crash states and recovery
 * modes: the same data served (scan, count, search) or the same error, the directory unchanged;
 * and the shared lock across symlinks, failed opens, power loss and concurrent openers.
 */
class ReadOnlyEquivalenceTest {
    private static final int DIM = 8;

    @TempDir
    Path tmp;

    private static Options options() {
        return Options.builder().dimension(DIM).memtableBytes(64 * 1024).durability(Durability.none()).build();
    }

    /** A database in {@code dir}: {@code flushed} intents in a segment, then {@code unflushed} only in the WAL. */
    private static void fill(Path dir, int flushed, int unflushed) {
        RandomIntents gen = new RandomIntents(3, DIM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < flushed; i++) {
                db.put(gen.next());
            }
            if (flushed > 0) {
                db.flush();
            }
            for (int i = 0; i < unflushed; i++) {
                db.put(gen.next());
            }
        }
    }

    private static List<Path> walFiles(Path dir) throws IOException {
        try (var files = Files.list(new DatabaseLayout(dir).walDir())) {
            return files.filter(p -> DatabaseLayout.walNumber(p).isPresent()).sorted().toList();
        }
    }

    /** What a DB serves: every intent by scan, plus a search. */
    private static String served(TalaDB db, float[] q) {
        StringBuilder sb = new StringBuilder();
        sb.append("count=").append(db.stats().intents()).append('\n');
        for (Intent x : db.scan(0, Long.MAX_VALUE, Integer.MAX_VALUE)) {
            sb.append(x).append('\n');
        }
        for (SearchHit h : db.search(q, 10, SearchFilter.ALL)) {
            sb.append(h).append('\n');
        }
        return sb.toString();
    }

    // ---- locks ------------------------------------------------------------------------------

    @Test
    void readersThroughASymlinkOpenBesideAWriterThroughTheOther() throws IOException {
        Path dir = tmp.resolve("db");
        Intent x = new RandomIntents(5, DIM).next();
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(x);
        }
        Path link = Files.createSymbolicLink(tmp.resolve("link"), dir);
        try (TalaDB a = TalaDB.openReadOnly(dir); TalaDB b = TalaDB.openReadOnly(link)) {
            try (TalaDB w = TalaDB.open(link, options())) {
                try (TalaDB c = TalaDB.openReadOnly(dir)) {
                    assertEquals(Optional.of(x), c.get(x.id()));
                }
                assertThrows(DatabaseLockedException.class, () -> TalaDB.open(dir, options()).close(),
                        "one writer, whichever path it comes by");
            }
            assertEquals(Optional.of(x), a.get(x.id()));
            assertEquals(Optional.of(x), b.get(x.id()));
        }
    }

    @Test
    void aFailedReadOnlyOpenReleasesTheLock() throws IOException {
        Path dir = tmp.resolve("db");
        Options big = options().toBuilder().memtableBytes(64L << 20).build();
        List<Intent> written = RecoveryProtocolTest.oneRecordPerOpen(dir, big, new RandomIntents(31, DIM), 3);
        List<Path> wals = walFiles(dir);
        Path middle = wals.get(1);
        byte[] damaged = Files.readAllBytes(middle);
        damaged[WalFormat.FILE_HEADER_BYTES + 20] ^= 0x01;
        Files.write(middle, damaged);
        assertThrows(CorruptionException.class, () -> TalaDB.openReadOnly(dir, big));
        assertThrows(TalaException.class, () -> TalaDB.openReadOnly(dir, big.toBuilder().dimension(DIM + 1).build()));
        try (TalaDB w = TalaDB.open(dir, big.toBuilder().recoveryMode(WalRecoveryMode.POINT_IN_TIME).build())) {
            assertEquals(Optional.of(written.getFirst()), w.get(written.getFirst().id()));
        }
    }

    @Test
    void verifyBesideAReaderAndRefusedBesideAWriter() throws IOException {
        Path dir = tmp.resolve("db");
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(new RandomIntents(5, DIM).next());
        }
        DatabaseLayout layout = new DatabaseLayout(dir);
        try (TalaDB r = TalaDB.openReadOnly(dir)) {
            assertTrue(DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout).isClean());
        }
        try (TalaDB w = TalaDB.open(dir, options())) {
            assertThrows(DatabaseLockedException.class, () -> DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout));
        }
    }

    // ---- interrupted creation / lost MANIFEST ----------------------------------------------

    @Test
    void anInterruptedCreationIsServedAsTheWritableOpenServesIt() throws IOException {
        Path dir = tmp.resolve("db");
        TalaDB.open(dir, options()).close();
        DatabaseLayout layout = new DatabaseLayout(dir);
        Files.delete(layout.manifestFile());
        Map<String, String> before = ReadOnlyOpenTest.tree(dir);
        try (TalaDB r = TalaDB.openReadOnly(dir)) {
            assertEquals(0, r.stats().intents());
        } finally {
            assertEquals(before, ReadOnlyOpenTest.tree(dir));
        }
    }

    /**
     * verify says of an interrupted creation what the opens do with it (it failed with the
     * file system's "does not exist"), and checks the WAL files as the open replays them.
     */
    @Test
    void verifyCallsAnInterruptedCreationOneTheNextOpenFinishes() throws IOException {
        Path dir = tmp.resolve("db");
        Intent x = new RandomIntents(5, DIM).next();
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(x);
        }
        DatabaseLayout layout = new DatabaseLayout(dir);
        Files.delete(layout.manifestFile());
        VerifyReport report = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout);
        assertEquals(List.of(new VerifyReport.Problem(layout.manifestFile().toString(), 0, "missing: the database's"
                + " creation was cut short before its MANIFEST was written; the next writable open writes an empty"
                + " one")), report.problems());
        try (TalaDB w = TalaDB.open(dir, options())) {
            assertEquals(Optional.of(x), w.get(x.id()), "the WAL replayed under the empty MANIFEST");
        }
        assertTrue(DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout).isClean());
    }

    @Test
    void aLostManifestBesideSegmentsIsRefusedWithTheWritableOpensError() throws IOException {
        Path dir = tmp.resolve("db");
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(new RandomIntents(5, DIM).next());
            db.flush();
        }
        DatabaseLayout layout = new DatabaseLayout(dir);
        Files.delete(layout.manifestFile());
        RuntimeException ro = assertThrows(RuntimeException.class, () -> TalaDB.openReadOnly(dir));
        RuntimeException rw = assertThrows(RuntimeException.class, () -> TalaDB.open(dir, options()));
        assertEquals(rw.getClass(), ro.getClass(), "ro: " + ro.getMessage() + "\nrw: " + rw.getMessage());
        VerifyReport report = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout);
        assertEquals(List.of(new VerifyReport.Problem(layout.manifestFile().toString(), 0, "MANIFEST is missing but"
                + " segments exist; refusing to guess which are live (every open refuses this)")), report.problems());
    }

    // ---- served data --------------------------------------------------------------------

    /** The read-only open, then the writable open with the same options, must serve the same. */
    private void assertSameAsWritable(Path dir, Options o) throws IOException {
        float[] q = new RandomIntents(77, DIM).next().embedding();
        Map<String, String> before = ReadOnlyOpenTest.tree(dir);
        String ro;
        try (TalaDB r = TalaDB.openReadOnly(dir, o)) {
            ro = served(r, q);
        }
        assertEquals(before, ReadOnlyOpenTest.tree(dir), "read-only changed the directory");
        String rw;
        try (TalaDB w = TalaDB.open(dir, o)) {
            rw = served(w, q);
        }
        assertEquals(rw, ro);
    }

    @Test
    void aWalLargerThanOneMemtable() throws IOException {
        Path dir = tmp.resolve("db");
        RandomIntents gen = new RandomIntents(9, DIM);
        try (TalaDB db = TalaDB.open(dir, options().toBuilder().memtableBytes(64L << 20).build())) {
            for (int i = 0; i < 3000; i++) {
                Intent x = gen.next();
                db.put(x);
                if (i % 7 == 0) {
                    db.delete(x.id());
                }
            }
        }
        assertSameAsWritable(dir, options());
    }

    /** Damage in the second of four WAL files: the lenient modes stop at it or step over it. */
    @ParameterizedTest
    @EnumSource(value = WalRecoveryMode.class, names = {"POINT_IN_TIME", "SKIP_CORRUPTED"})
    void aLenientModeOverSeveralWalFiles(WalRecoveryMode mode) throws IOException {
        Path dir = tmp.resolve("db");
        Options big = options().toBuilder().memtableBytes(64L << 20).build();
        RecoveryProtocolTest.oneRecordPerOpen(dir, big, new RandomIntents(31, DIM), 4);
        Path second = walFiles(dir).get(1);
        byte[] damaged = Files.readAllBytes(second);
        damaged[WalFormat.FILE_HEADER_BYTES + 20] ^= 0x01;
        Files.write(second, damaged);
        assertSameAsWritable(dir, big.toBuilder().recoveryMode(mode).build());
    }

    @Test
    void anEmptyNewestWalFileAndObsoleteWalFiles() throws IOException {
        Path dir = tmp.resolve("db");
        fill(dir, 40, 5);
        DatabaseLayout layout = new DatabaseLayout(dir);
        Files.write(layout.walFile(0), new byte[] {1, 2, 3}); // below log_number: obsolete
        Files.createFile(layout.walFile(999));
        assertSameAsWritable(dir, options());
    }

    @Test
    void spareWalFiles() throws IOException {
        Path dir = tmp.resolve("db");
        fill(dir, 0, 40);
        DatabaseLayout layout = new DatabaseLayout(dir);
        Files.write(layout.walDir().resolve("00000000000000000500.wal.free"), new byte[4096]);
        Files.write(layout.walDir().resolve("00000000000000000501.wal.ready"), new byte[4096]);
        assertSameAsWritable(dir, options());
    }

    @Test
    void snapshotsAndStatsOnAReadOnlyDatabase() throws IOException {
        Path dir = tmp.resolve("db");
        RandomIntents gen = new RandomIntents(3, DIM);
        List<Intent> all = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options().toBuilder().memtableBytes(64L << 20).build())) {
            for (int i = 0; i < 2000; i++) {
                Intent x = gen.next();
                db.put(x);
                all.add(x);
            }
        }
        TalaDB r = TalaDB.openReadOnly(dir, options());
        var stats = r.stats();
        assertEquals(all.size(), stats.intents());
        Snapshot s = r.snapshot();
        r.close();
        assertEquals(Optional.of(all.getFirst()), s.get(all.getFirst().id()));
        assertEquals(all.size(), s.countIntents());
        s.close();
    }

    @Test
    void aTornManifestTailAndAnUnlistedSegment() throws IOException {
        Path dir = tmp.resolve("db");
        fill(dir, 40, 40);
        Path manifest = new DatabaseLayout(dir).manifestFile();
        byte[] b = Files.readAllBytes(manifest);
        Files.write(manifest, Arrays.copyOf(b, b.length + 11));
        assertSameAsWritable(dir, options());
    }

    @Test
    void aDamagedLastManifestEditIsJudgedTheSame() throws IOException {
        for (WalRecoveryMode mode : WalRecoveryMode.values()) {
            Path dir = tmp.resolve("db-" + mode);
            fill(dir, 20, 0);
            DamagedLastEdit.flipABit(dir);
            Options o = options().toBuilder().recoveryMode(mode).build();
            String ro;
            try (TalaDB r = TalaDB.openReadOnly(dir, o)) {
                ro = "ok " + r.stats().intents();
            } catch (RuntimeException e) {
                ro = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            String rw;
            try (TalaDB w = TalaDB.open(dir, o)) {
                rw = "ok " + w.stats().intents();
            } catch (RuntimeException e) {
                rw = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            assertEquals(rw, ro, mode.toString());
        }
    }

    /**
     * Writers never overlap each other; readers open beside them at any moment, and every open
     * either succeeds or (a reader that saw the writers commit at each of its attempts) says so.
     */
    @Test
    void concurrentReadersAndWritersNeverOverlapAsWriters() throws Exception {
        Path dir = tmp.resolve("db");
        TalaDB.open(dir, options()).close();
        java.util.concurrent.atomic.AtomicInteger writers = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ConcurrentLinkedQueue<String> bad = new java.util.concurrent.ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            boolean writer = t < 2;
            RandomIntents gen = new RandomIntents(100 + t, DIM);
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 40; i++) {
                    try {
                        if (writer) {
                            try (TalaDB db = TalaDB.open(dir, options())) {
                                if (writers.incrementAndGet() != 1) {
                                    bad.add("two writers");
                                }
                                db.put(gen.next());
                                writers.decrementAndGet();
                            }
                        } else {
                            try (TalaDB db = TalaDB.openReadOnly(dir)) {
                                db.stats();
                            }
                        }
                    } catch (DatabaseLockedException e) {
                        if (!writer || e.byReaders()) {
                            bad.add(e.toString());
                        }
                    } catch (TalaException e) {
                        if (writer || !e.getMessage().contains("changed while it was read")) {
                            bad.add(e.toString());
                        }
                    } catch (RuntimeException e) {
                        bad.add(e.toString());
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), List.copyOf(bad));
    }

    @Test
    void anEmptyNewestWalFileIsReportedAsARepairLeftUndone() throws IOException {
        Path dir = tmp.resolve("db");
        RandomIntents gen = new RandomIntents(3, DIM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < 5; i++) {
                db.put(gen.next());
            }
        }
        Path empty = new DatabaseLayout(dir).walFile(999);
        Files.createFile(empty);
        List<String> ro;
        try (TalaDB r = TalaDB.openReadOnly(dir, options())) {
            ro = r.recoveryReport().actions().stream().filter(a -> a.file().equals(empty.toString()))
                    .map(a -> a.kind().toString()).toList();
        }
        List<String> rw;
        try (TalaDB w = TalaDB.open(dir, options())) {
            rw = w.recoveryReport().actions().stream().filter(a -> a.file().equals(empty.toString()))
                    .map(a -> a.kind().toString()).toList();
        }
        assertEquals(List.of("TRUNCATED_WAL_TAIL"), rw);
        assertEquals(rw, ro, "the writable open deletes the empty file; the read-only open must report it left undone");
    }
}
