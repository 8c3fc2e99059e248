package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.error.DatabaseLockedException;
import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.error.StorageException;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentLimits;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.wal.Durability;
import dev.tala.wal.WalFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TalaDBTest {
    static final int DIM = 8;
    @TempDir
    Path dir;

    Options small() {
        return Options.builder().dimension(DIM).memtableBytes(64 * 1024).durability(Durability.none()).build();
    }

    @Test
    void putGetDeleteAndAttachOutcome() {
        RandomIntents gen = new RandomIntents(1, DIM);
        try (TalaDB db = TalaDB.open(dir, small())) {
            Intent a = gen.next();
            long s1 = db.put(a);
            assertEquals(Optional.of(a), db.get(a.id()));
            long s2 = db.attachOutcome(a.id(), Status.FAILURE, new Outcome(42, 137));
            assertTrue(s2 > s1);
            Intent updated = db.get(a.id()).orElseThrow();
            assertEquals(Status.FAILURE, updated.status());
            assertEquals(new Outcome(42, 137), updated.outcome());
            assertEquals(a.command(), updated.command());
            db.delete(a.id());
            assertEquals(Optional.empty(), db.get(a.id()));
            InvalidIntentException e = assertThrows(InvalidIntentException.class,
                    () -> db.attachOutcome(a.id(), Status.SUCCESS, null));
            assertTrue(e.getMessage().contains("no intent " + a.id()), e.getMessage());
            assertEquals(Optional.empty(), db.get(IntentId.of(1, 2)));
        }
    }

    @Test
    void unflushedWritesComeBackFromTheWalAndFlushedOnesFromSegments() {
        RandomIntents gen = new RandomIntents(2, DIM);
        Map<IntentId, Intent> model = new HashMap<>();
        try (TalaDB db = TalaDB.open(dir, small())) {
            for (int i = 0; i < 300; i++) {
                Intent x = gen.next();
                db.put(x);
                model.put(x.id(), x);
            }
            db.flush();
            assertTrue(db.stats().segments() >= 1, "flushed into segments");
            for (int i = 0; i < 50; i++) {
                Intent x = gen.next();
                db.put(x);
                model.put(x.id(), x);
            }
        }
        try (TalaDB db = TalaDB.open(dir, small())) {
            assertTrue(db.recoveryReport().recordsReplayed() >= 50, db.recoveryReport().summary());
            for (Intent x : model.values()) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
            assertEquals(model.size(), db.stats().intents());
        }
    }

    @Test
    void aBatchIsAtomicAndSeesItsOwnEarlierWrites() {
        RandomIntents gen = new RandomIntents(3, DIM);
        try (TalaDB db = TalaDB.open(dir, small())) {
            Intent a = gen.next();
            Intent b = gen.next();
            WriteBatch batch = new WriteBatch().put(a).attachOutcome(a.id(), Status.SUCCESS, new Outcome(1, 0)).put(b)
                    .delete(b.id());
            db.write(batch);
            assertEquals(Status.SUCCESS, db.get(a.id()).orElseThrow().status());
            assertEquals(Optional.empty(), db.get(b.id()));
            // A batch whose outcome names an unknown id is refused whole.
            Intent c = gen.next();
            WriteBatch bad = new WriteBatch().put(c).attachOutcome(IntentId.of(9, 9), Status.FAILURE, null);
            assertThrows(InvalidIntentException.class, () -> db.write(bad));
            assertEquals(Optional.empty(), db.get(c.id()));
        }
    }

    @Test
    void optionsAreFixedAtCreation() {
        try (TalaDB db = TalaDB.open(dir, small())) {
            assertEquals(DIM, db.dimension());
            InvalidIntentException e = assertThrows(InvalidIntentException.class,
                    () -> db.put(new RandomIntents(4, DIM + 1).next()));
            assertEquals("embedding", e.field());
        }
        assertTrue(Files.exists(dir.resolve("OPTIONS")));
        TalaException e = assertThrows(TalaException.class,
                () -> TalaDB.open(dir, Options.builder().dimension(384).build()));
        assertTrue(e.getMessage().contains("has embedding dimension " + DIM), e.getMessage());
        try (TalaDB db = TalaDB.open(dir)) {
            assertEquals(DIM, db.dimension(), "the stored dimension is used when none is given");
        }
    }

    /** A regular file where the directory should be is named as such, and left as it was. */
    @Test
    void openingAFileSaysItIsAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "not a database");
        for (boolean create : new boolean[] {true, false}) {
            TalaException e = assertThrows(TalaException.class,
                    () -> TalaDB.open(file, small().toBuilder().createIfMissing(create).build()));
            assertEquals(file + " is a file, not a database directory", e.getMessage());
        }
        assertEquals("not a database", Files.readString(file));
    }

    /**
     * A hand-edited OPTIONS file is held to the builder's rules, and the error names the line.
     * So is a line that is not key=value, a key given twice (which would silently take the last)
     * and a key this version does not know (a typo that would leave the real key missing).
     */
    @Test
    void aHandEditedOptionsFileThatIsWrongDoesNotOpenAndNamesTheLine() throws Exception {
        try (TalaDB db = TalaDB.open(dir, small())) {
            db.put(new RandomIntents(1, DIM).next());
        }
        Path options = dir.resolve("OPTIONS");
        String good = Files.readString(options);
        for (String[] edit : new String[][] {
                {"memtable_bytes=\\d+", "memtable_bytes=0", "memtable_bytes=0: memtable size must be 4096 to 1073741824 bytes"},
                {"dimension=\\d+", "dimension=abc", "dimension=abc: not a whole number"},
                {"dimension=\\d+", "dimension=-3", "dimension=-3: dimension must be 1 to"},
                // From an audit: past the range of an int, out of range, not "not a whole number".
                {"dimension=\\d+", "dimension=4294967300", "dimension=4294967300: dimension must be 1 to 65536"},
                {"dtype=\\w+", "dtype=f64", "dtype=f64: embedding type \"f64\" is not"},
                {"durability=\\w+", "durability=batch:0", "durability=batch:0: BATCH durability needs an interval"},
                {"durability=\\w+", "durability=batch:99999999999999", "from 1 ms to 86400000 ms"},
                // From an audit: other scripts' digits were read as numbers ("batch:\u0665" as batch:5).
                {"dimension=\\d+", "dimension=\u0668", "dimension=\u0668: not a whole number"},
                {"durability=\\w+", "durability=batch:\u0665", "is not sync, none or batch:<millis>"}}) {
            String edited = good.replaceFirst(edit[0], edit[1]);
            Files.writeString(options, edited);
            TalaException e = assertThrows(TalaException.class, () -> TalaDB.open(dir), edit[1]);
            assertTrue(e.getMessage().contains(edit[2]), e.getMessage());
            assertTrue(e.getMessage().contains("OPTIONS"), e.getMessage());
            int at = edited.indexOf(edit[1]);
            long line = edited.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
            assertTrue(e.getMessage().contains("at offset " + at + ": line " + line + ": "), e.getMessage());
        }
        assertTrue(good.startsWith("# TalaDB database options, fixed when the database was created\nformat=1\ndimension="),
                good);
        int fourthLine = good.indexOf("dtype=");
        for (String[] edit : new String[][] {
                {"dimension=" + DIM, "line 4: \"dimension\" is given twice (first on line 3)"},
                {"dimention=" + DIM, "line 4: unknown option \"dimention\""},
                {"dimension " + DIM, "line 4: expected key=value"}}) {
            String edited = good.substring(0, fourthLine) + edit[0] + "\n" + good.substring(fourthLine);
            Files.writeString(options, edited);
            CorruptionException e = assertThrows(CorruptionException.class, () -> TalaDB.open(dir), edited);
            assertTrue(e.getMessage().contains(edit[1]), e.getMessage());
            assertEquals(fourthLine, e.offset(), e.getMessage());
        }
        List<Path> walFiles;
        try (var files = Files.list(dir.resolve("wal"))) {
            walFiles = files.toList();
        }
        assertTrue(walFiles.size() <= 2, "a refused open started WAL files: " + walFiles);
        Files.writeString(options, good);
        try (TalaDB db = TalaDB.open(dir)) {
            assertEquals(1, db.stats().intents());
        }
        // Blank lines and comments are fine.
        Files.writeString(options, good.replace("format=1\n", "format=1\n\n# a note an operator added\n"));
        try (TalaDB db = TalaDB.open(dir)) {
            assertEquals(1, db.stats().intents());
        }
        // Above the cap the builder refuses; a database stored before the cap opens with it.
        assertThrows(IllegalArgumentException.class,
                () -> Options.builder().memtableBytes(Options.MAX_MEMTABLE_BYTES + 1));
        Files.writeString(options, good.replaceFirst("memtable_bytes=\\d+", "memtable_bytes=4294967296"));
        try (TalaDB db = TalaDB.open(dir)) {
            assertEquals(1, db.stats().intents());
        }
        Files.writeString(options, good.replaceFirst("memtable_bytes=\\d+", "memtable_bytes=99999999999999999999"));
        try (TalaDB db = TalaDB.open(dir)) {
            assertEquals(1, db.stats().intents());
        }
        // From an audit: a UTF-8 byte order mark an editor put first is not part of line 1.
        Files.writeString(options, "\uFEFF" + good);
        try (TalaDB db = TalaDB.open(dir)) {
            assertEquals(1, db.stats().intents());
        }
        // From an audit: cut inside its last line, batch:2500 read as batch:250 and opened.
        byte[] whole = good.replaceFirst("durability=\\S+", "durability=batch:2500").getBytes(StandardCharsets.UTF_8);
        for (int cut = 1; cut <= "batch:2500\n".length(); cut++) {
            Files.write(options, java.util.Arrays.copyOf(whole, whole.length - cut));
            CorruptionException e = assertThrows(CorruptionException.class, () -> TalaDB.open(dir), "cut " + cut);
            assertTrue(e.getMessage().contains("the last line has no newline: the file is cut short"), e.getMessage());
        }
        Files.write(options, whole);
        try (TalaDB db = TalaDB.open(dir)) {
            assertEquals("batch:2500", db.durability().toString());
        }
    }

    /**
     * The latest writable timestamp is in the widest range, before and after a flush; one past
     * it was stored once and then found by no scan, so it is refused with nothing written.
     */
    @Test
    void theLatestWritableTimestampIsScannedAndOnePastItIsRefused() {
        RandomIntents gen = new RandomIntents(10, DIM);
        Intent last = gen.next().toBuilder().timestampNs(IntentLimits.MAX_TIMESTAMP_NS).build();
        try (TalaDB db = TalaDB.open(dir, small())) {
            db.put(last);
            assertEquals(List.of(last), db.scan(0, Long.MAX_VALUE, 10));
            Intent beyond = gen.next().toBuilder().timestampNs(Long.MAX_VALUE).build();
            InvalidIntentException e = assertThrows(InvalidIntentException.class, () -> db.put(beyond));
            assertEquals("timestamp", e.field());
            assertThrows(InvalidIntentException.class, () -> db.write(new WriteBatch().put(gen.next()).put(beyond)));
            db.flush();
            assertEquals(List.of(last), db.scan(0, Long.MAX_VALUE, 10));
            assertEquals(1, db.stats().intents());
        }
    }

    /** A closed handle the embedder still holds keeps none of its data reachable. */
    @Test
    void aClosedHandleKeepsNoMemtableReachable() throws InterruptedException {
        RandomIntents gen = new RandomIntents(14, DIM);
        TalaDB db = TalaDB.open(dir, Options.builder().dimension(DIM).durability(Durability.none()).build());
        Intent kept = gen.next();
        db.put(kept);
        java.lang.ref.WeakReference<Intent> stored = new java.lang.ref.WeakReference<>(kept);
        kept = null;
        for (int i = 0; i < 100; i++) {
            db.put(gen.next());
        }
        db.close();
        for (int i = 0; i < 50 && stored.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertEquals(null, stored.get(), "the closed handle still reaches its memtable");
        assertThrows(DatabaseClosedException.class, () -> db.get(gen.next().id()));
    }

    /**
     * A search whose time range covers part of the memtable reads only that part, in arrival
     * order, yet still breaks ties by id: here the ids arrive largest first, and the tied top 2
     * of the range are its two smallest ids, from the memtable as from a segment.
     */
    @Test
    void aTimeFilteredSearchOfTheMemtableBreaksTiesById() {
        float[] same = new float[DIM];
        same[0] = 1;
        try (TalaDB db = TalaDB.open(dir, small())) {
            for (long n = 9; n >= 1; n--) {
                db.put(Intent.builder().id(IntentId.of(n, n)).timestampNs(100 - n).command("c" + n).embedding(same)
                        .build());
            }
            // Id n has timestamp 100 - n: the range [92, 98) holds ids 3..8 and leaves out 1, 2 and 9.
            SearchFilter part = SearchFilter.ALL.withTimeRange(92, 98);
            List<IntentId> expected = List.of(IntentId.of(3, 3), IntentId.of(4, 4));
            assertEquals(expected, db.search(same, 2, part).stream().map(h -> h.intent().id()).toList(), "memtable");
            db.flush();
            assertEquals(expected, db.search(same, 2, part).stream().map(h -> h.intent().id()).toList(), "segment");
        }
    }

    /**
     * Equal scores at the cut of the top k go to the smaller ids wherever the intents are
     * stored: one heap for every memtable and segment broke ties by source, so the answer
     * changed with a flush or a compaction.
     */
    @Test
    void tiedScoresAtTheCutGoToTheSmallerIdsWhereverTheyAreStored() {
        float[] same = new float[DIM];
        same[0] = 1;
        try (TalaDB db = TalaDB.open(dir, small())) {
            long[][] batches = {{5, 2}, {6, 1}, {4, 3}};
            for (int b = 0; b < batches.length; b++) {
                for (long n : batches[b]) {
                    db.put(Intent.builder().id(IntentId.of(n, n)).timestampNs(n).command("c" + n).embedding(same)
                            .build());
                }
                if (b < batches.length - 1) {
                    db.flush();
                }
            }
            List<IntentId> expected = List.of(IntentId.of(1, 1), IntentId.of(2, 2), IntentId.of(3, 3));
            assertEquals(expected, db.search(same, 3, SearchFilter.ALL).stream().map(h -> h.intent().id()).toList(),
                    "memtable and two segments");
            db.compact(p -> { });
            assertEquals(expected, db.search(same, 3, SearchFilter.ALL).stream().map(h -> h.intent().id()).toList(),
                    "one compacted segment");
        }
    }

    /** k comes from requests; a huge one returns everything, not an OutOfMemoryError. */
    @Test
    void aSearchForMoreHitsThanStoredReturnsThemAll() {
        RandomIntents gen = new RandomIntents(9, DIM);
        try (TalaDB db = TalaDB.open(dir, small())) {
            for (int i = 0; i < 30; i++) {
                db.put(gen.next());
            }
            db.flush();
            for (int i = 0; i < 20; i++) {
                db.put(gen.next());
            }
            float[] query = gen.next().embedding();
            assertEquals(50, db.search(query, Integer.MAX_VALUE, SearchFilter.ALL).size());
            assertEquals(50, db.search(query, 300_000_000, SearchFilter.ALL).size());
            NullPointerException e = assertThrows(NullPointerException.class,
                    () -> db.search(null, 3, SearchFilter.ALL));
            assertEquals("vector", e.getMessage());
            // A bad query is the caller's input, named the way a bad intent is.
            query[3] = Float.NaN;
            InvalidIntentException nan = assertThrows(InvalidIntentException.class,
                    () -> db.search(query, 3, SearchFilter.ALL));
            assertEquals("vector: value 3 is NaN; every value must be a finite number", nan.getMessage());
            InvalidIntentException shortQuery = assertThrows(InvalidIntentException.class,
                    () -> db.search(new float[DIM - 1], 3, SearchFilter.ALL));
            assertEquals("vector", shortQuery.field());
        }
    }

    @Test
    void aSecondOpenerIsRefusedAndAClosedDatabaseRefusesWork() {
        TalaDB db = TalaDB.open(dir, small());
        assertThrows(DatabaseLockedException.class, () -> TalaDB.open(dir, small()));
        db.close();
        DatabaseClosedException e = assertThrows(DatabaseClosedException.class, () -> db.get(IntentId.of(1, 1)));
        assertEquals("the database in " + dir + " is closed", e.getMessage());
        assertThrows(DatabaseClosedException.class, () -> db.put(new RandomIntents(5, DIM).next()));
        TalaDB.open(dir, small()).close();
    }

    /** A shutdown hook racing the service's own stop: whichever returns second, the directory is free. */
    @Test
    void aSecondConcurrentCloseReturnsOnlyOnceTheDatabaseIsClosed() throws Exception {
        Intent x = new RandomIntents(6, DIM).next();
        for (int round = 0; round < 30; round++) {
            TalaDB db = TalaDB.open(dir, small());
            db.put(x);
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            Thread other = Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                db.close();
            });
            go.countDown();
            db.close();
            try (TalaDB again = TalaDB.open(dir, small())) {
                assertEquals(Optional.of(x), again.get(x.id()), "round " + round);
            }
            other.join();
        }
    }

    /** Closing from inside a compaction would unmap what it reads; the listener is refused instead. */
    @Test
    void closeFromACompactionsListenerIsRefusedAndTheDatabaseStaysUsable() {
        RandomIntents gen = new RandomIntents(12, DIM);
        List<Intent> written = new ArrayList<>();
        Options manual = small().toBuilder().backgroundCompaction(false).build();
        try (TalaDB db = TalaDB.open(dir, manual)) {
            for (int segment = 0; segment < 3; segment++) {
                for (int i = 0; i < 200; i++) {
                    Intent x = gen.next();
                    db.put(x);
                    written.add(x);
                }
                db.flush();
            }
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> db.compact(progress -> db.close()));
            assertTrue(e.getMessage().contains("progress listener"), e.getMessage());
            for (Intent x : written) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
            assertTrue(db.compact(dev.tala.compaction.CompactionProgress.Listener.NONE).isPresent());
            assertEquals(written.size(), db.stats().intents());
        }
    }

    /**
     * OPTIONS stores a BATCH interval in milliseconds, so the builder takes whole milliseconds
     * only, from 1 ms to a day: a sub-millisecond interval was stored as batch:0, which refused
     * every later open that relied on the stored durability, and a huge one overflowed when the
     * log started, with OPTIONS already written.
     */
    @Test
    void aBatchIntervalIsWholeMillisecondsUpToADayAndReopensAsStored() throws Exception {
        for (Duration refused : List.of(Duration.ofNanos(500_000), Duration.ofNanos(1_500_000), Duration.ZERO,
                Duration.ofDays(2), Duration.ofDays(365L * 1_000_000))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durability.batch(refused));
            assertTrue(e.getMessage().contains("whole milliseconds from 1 ms"), e.getMessage());
        }
        Durability quarterSecond = Durability.batch(Duration.ofMillis(250));
        try (TalaDB db = TalaDB.open(dir, small().toBuilder().durability(quarterSecond).build())) {
            db.put(new RandomIntents(2, DIM).next());
        }
        try (TalaDB db = TalaDB.open(dir)) {
            assertEquals(quarterSecond, db.durability());
            assertEquals(1, db.stats().intents());
        }
    }

    /**
     * Records in the WAL whose embeddings have another dimension than OPTIONS says (OPTIONS edited
     * by hand, or restored from another database) were replayed: the open succeeded and the
     * first search or flush failed. The open must refuse, name both, and change nothing.
     */
    @Test
    void walRecordsOfAnotherDimensionThanOptionsAreRefusedAtOpen() throws Exception {
        List<Intent> written = new ArrayList<>();
        RandomIntents gen = new RandomIntents(3, DIM);
        try (TalaDB db = TalaDB.open(dir, small())) {
            for (int i = 0; i < 20; i++) {
                Intent x = gen.next();
                db.put(x);
                written.add(x);
            }
        }
        Path options = dir.resolve("OPTIONS");
        String good = Files.readString(options);
        Files.writeString(options, good.replaceFirst("dimension=\\d+", "dimension=16"));
        TalaException e = assertThrows(TalaException.class, () -> TalaDB.open(dir));
        assertTrue(e.getMessage().contains("dimension " + DIM) && e.getMessage().contains("dimension is 16"), e.getMessage());
        String firstRecord = dir.resolve("wal").resolve(DatabaseLayout.walFileName(1)) + " at offset "
                + WalFormat.FILE_HEADER_BYTES + " holds";
        assertTrue(e.getMessage().startsWith(firstRecord), "the first record is named by its file and offset: "
                + e.getMessage());
        Files.writeString(options, good);
        try (TalaDB db = TalaDB.open(dir)) {
            for (Intent x : written) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
        }
    }

    /**
     * A database whose OPTIONS and MANIFEST are gone still has its data in wal/ and segments/.
     * Only files directly in the directory were looked at, so an open created a new database
     * over it with default options, replayed the old WAL into it and wrote an OPTIONS file that
     * then refused the data's own dimension. The open must refuse and write nothing.
     */
    @Test
    void aDatabaseWithoutItsOptionsFileIsNotTakenForAnEmptyDirectory() throws Exception {
        RandomIntents gen = new RandomIntents(4, DIM);
        try (TalaDB db = TalaDB.open(dir, small())) {
            for (int i = 0; i < 10; i++) {
                db.put(gen.next());
            }
            db.flush();
            db.put(gen.next()); // and one left in the WAL
        }
        for (String name : List.of("OPTIONS", "MANIFEST", "LOCK")) {
            Files.deleteIfExists(dir.resolve(name));
        }
        TalaException e = assertThrows(TalaException.class, () -> TalaDB.open(dir));
        assertTrue(e.getMessage().contains("no TalaDB OPTIONS file"), e.getMessage());
        assertTrue(e.getMessage().contains("refusing to create a new one over its data"), e.getMessage());
        for (String name : List.of("OPTIONS", "MANIFEST", "LOCK")) {
            assertFalse(Files.exists(dir.resolve(name)), name + " was written by a refused open");
        }
    }

    @Test
    void openingADirectoryWithForeignFilesIsRefused() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "mine");
        TalaException e = assertThrows(TalaException.class, () -> TalaDB.open(dir, small()));
        assertTrue(e.getMessage().contains("no TalaDB OPTIONS file"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("MANIFEST")));
        assertFalse(Files.exists(dir.resolve("LOCK")), "the refused open takes back its LOCK file");
        TalaException missing = assertThrows(TalaException.class, () -> TalaDB.open(dir.resolve("absent"),
                small().toBuilder().createIfMissing(false).build()));
        assertTrue(missing.getMessage().contains("no database"), missing.getMessage());
    }

    @Test
    void aSnapshotRepeatsItsReadsAcrossWritesAndFlushes() {
        RandomIntents gen = new RandomIntents(6, DIM);
        try (TalaDB db = TalaDB.open(dir, small())) {
            List<Intent> first = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                Intent x = gen.next();
                db.put(x);
                first.add(x);
            }
            try (Snapshot snap = db.snapshot()) {
                long before = snap.countIntents();
                for (Intent x : first.subList(0, 50)) {
                    db.delete(x.id());
                }
                for (Intent x : first.subList(50, 60)) {
                    db.attachOutcome(x.id(), Status.PARTIAL, null);
                }
                for (int i = 0; i < 200; i++) {
                    db.put(gen.next());
                }
                db.flush();
                assertEquals(before, snap.countIntents());
                for (Intent x : first) {
                    assertEquals(Optional.of(x), snap.get(x.id()), "snapshot sees the old version");
                }
            }
            assertEquals(Optional.empty(), db.get(first.getFirst().id()));
            assertEquals(Status.PARTIAL, db.get(first.get(55).id()).orElseThrow().status());
        }
    }

    /**
     * A snapshot is "a consistent, repeatable view": asked twice, it gives the same list. A target
     * with more than a few sources in a memtable keeps them in a concurrent set, which later
     * writes (invisible to the snapshot) grow and reorder, and edgesTo and an incoming traverse
     * came back in another order.
     */
    @Test
    void aSnapshotAnswersIncomingEdgesInTheSameOrderWhateverIsWrittenLater() {
        RandomIntents gen = new RandomIntents(11, DIM);
        try (TalaDB db = TalaDB.open(dir.resolve("db"), Options.builder().dimension(DIM).build())) {
            Intent target = gen.next().toBuilder().edges(List.of()).build();
            db.put(target);
            for (int i = 0; i < 11; i++) {
                db.put(gen.next().toBuilder().edges(List.of()).addEdge(target.id(), Relation.CAUSAL, i).build());
            }
            try (Snapshot s = db.snapshot()) {
                List<Hop> edges = s.edgesTo(target.id());
                List<Hop> hops = s.traverse(target.id(), 2, Set.of(), Direction.INCOMING);
                assertEquals(11, edges.size());
                for (int i = 0; i < 200; i++) {
                    db.put(gen.next().toBuilder().edges(List.of()).addEdge(target.id(), Relation.CAUSAL, i).build());
                }
                assertEquals(edges, s.edgesTo(target.id()));
                assertEquals(hops, s.traverse(target.id(), 2, Set.of(), Direction.INCOMING));
            }
        }
    }

    /**
     * The WAL's last force, at close, fails: the writes it was to make durable may be lost, and
     * close must say so. The log's failure reached the database's failure state during close
     * (its listener), and close took that for a database that had failed earlier and kept quiet.
     */
    @Test
    void closeReportsAFailedFinalForceOfTheWal() throws Exception {
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(dir.resolve("stash"));
        TalaDB db = TalaDB.open(dir.resolve("db"), Options.builder().dimension(DIM).fileLayer(fault)
                .durability(Durability.none()).build());
        db.put(new RandomIntents(1, DIM).next());
        fault.failForces(p -> p.getFileName().toString().endsWith(".wal"));
        StorageException refused = assertThrows(StorageException.class, db::close);
        assertTrue(refused.getMessage().contains("closing"), refused.getMessage());
    }

    @Test
    void closeLeavesNoThreadOfTheDatabaseRunning() throws Exception {
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        RandomIntents gen = new RandomIntents(21, DIM);
        Options options = small().toBuilder().durability(Durability.batch(java.time.Duration.ofMillis(5))).build();
        try (TalaDB db = TalaDB.open(dir, options)) {
            for (int i = 0; i < 2000; i++) {
                db.put(gen.next()); // several memtables: background flushes and compactions start
            }
            db.flush();
        }
        List<Thread> left = new ArrayList<>();
        // A pool's worker may take a moment to exit after the pool reports it terminated.
        for (int i = 0; i < 500; i++) {
            left = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> !before.contains(t) && t.isAlive() && t.getName().startsWith("tala-")
                            // One for the process, not the database's (Snapshot releases dropped snapshots on it).
                            && !t.getName().equals("tala-snapshot-cleaner")).toList();
            if (left.isEmpty()) {
                break;
            }
            Thread.sleep(10);
        }
        assertEquals(List.of(), left.stream().map(Thread::getName).toList(), "threads left running after close");
    }

    @Test
    void manyFlushesKeepEveryVersionReachableAndDeleteObsoleteWalFiles() throws Exception {
        RandomIntents gen = new RandomIntents(7, DIM);
        Map<IntentId, Intent> model = new HashMap<>();
        try (TalaDB db = TalaDB.open(dir, small())) {
            for (int i = 0; i < 3000; i++) {
                Intent x = gen.next();
                db.put(x);
                model.put(x.id(), x);
                if (i % 7 == 0) {
                    Intent older = model.values().iterator().next();
                    db.attachOutcome(older.id(), Status.SUCCESS, new Outcome(i, 0));
                    model.put(older.id(), older.withOutcome(Status.SUCCESS, new Outcome(i, 0)));
                }
            }
            db.flush();
            DbStats stats = db.stats();
            assertTrue(stats.flushes() > 3, "flushes: " + stats.flushes());
            assertEquals(1, stats.walFiles(), "only the current WAL file is left after a flush");
            assertEquals(model.size(), stats.intents());
        }
        try (TalaDB db = TalaDB.open(dir, small())) {
            assertTrue(db.recoveryReport().isClean(), db.recoveryReport().summary());
            for (Intent x : model.values()) {
                assertEquals(Optional.of(x), db.get(x.id()));
            }
        }
    }
}
