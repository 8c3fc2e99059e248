package dev.tala.wal;

import static dev.tala.wal.WalTestSupport.assertSameRecords;
import static dev.tala.wal.WalTestSupport.replayAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalReplayTest {
    final FileLayer fs = LocalFileLayer.INSTANCE;
    @TempDir
    Path dir;
    Path walDir;

    @BeforeEach
    void setUp() {
        walDir = dir.resolve("wal");
    }

    /** Writes {@code n} random records into WAL file 1 and returns them with the file's record end offsets. */
    private List<WalRecord> writeRecords(long seed, int n, List<Long> ends) throws IOException {
        RandomIntents gen = new RandomIntents(seed, WalTestSupport.DIM);
        List<WalRecord> written = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync())) {
            for (int i = 0; i < n; i++) {
                List<WalOp> ops = WalTestSupport.randomOps(gen);
                long first = wal.append(ops);
                wal.awaitDurable(first + ops.size() - 1);
                written.add(new WalRecord(first, ops));
                ends.add(Files.size(walFile(1)));
            }
        }
        return written;
    }

    private Path walFile(long n) {
        return walDir.resolve(DatabaseLayout.walFileName(n));
    }

    @Property(tries = 25)
    void everyRecordRoundTripsInOrder(@ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int n) throws IOException {
        Path d = Files.createTempDirectory("wal-roundtrip");
        try {
            Path w = d.resolve("wal");
            RandomIntents gen = new RandomIntents(seed, WalTestSupport.DIM);
            List<WalRecord> written = new ArrayList<>();
            try (WriteAheadLog wal = WriteAheadLog.create(fs, w, 7, 100, Durability.none())) {
                for (int i = 0; i < n; i++) {
                    List<WalOp> ops = WalTestSupport.randomOps(gen);
                    written.add(new WalRecord(wal.append(ops), ops));
                }
            }
            List<WalRecord> replayed = new ArrayList<>();
            // Sequences up to 100 are taken to be in segments: the MANIFEST's last sequence.
            WalReplayer.replay(fs, WalReplayer.walFiles(fs, w, 0), 100, WalRecoveryMode.ABSOLUTE_CONSISTENCY, replayed::add);
            assertSameRecords(written, replayed);
            if (!written.isEmpty()) {
                assertEquals(101, written.getFirst().firstSequence(), "sequence numbers continue after the given last one");
            }
        } finally {
            FileTrees.delete(d);
        }
    }

    @Test
    void aTornLastRecordAtEveryByteReplaysExactlyTheCompletePrefix() throws IOException {
        List<Long> ends = new ArrayList<>();
        List<WalRecord> written = writeRecords(42, 6, ends);
        byte[] full = Files.readAllBytes(walFile(1));
        long lastStart = ends.get(ends.size() - 2);
        for (long cut = lastStart; cut < full.length; cut++) {
            Files.write(walFile(1), Arrays.copyOf(full, (int) cut));
            List<WalRecord> replayed = new ArrayList<>();
            ReplayReport report = WalReplayer.replay(fs, List.of(walFile(1)), 0, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL,
                    replayed::add);
            assertSameRecords(written.subList(0, written.size() - 1), replayed);
            assertEquals(cut - lastStart, report.droppedTailBytes(), "cut at " + cut);
            assertEquals(lastStart, report.files().getFirst().validEnd());
            if (cut > lastStart) {
                CorruptionException e = assertThrows(CorruptionException.class, () -> replayAll(fs, walDir,
                        WalRecoveryMode.ABSOLUTE_CONSISTENCY), "absolute consistency refuses a torn tail");
                assertEquals(lastStart, e.offset());
            }
        }
    }

    @Test
    void aTruncationAtEveryOffsetReplaysThePrefixOfWholeRecords() throws IOException {
        List<Long> ends = new ArrayList<>();
        List<WalRecord> written = writeRecords(7, 5, ends);
        byte[] full = Files.readAllBytes(walFile(1));
        for (int cut = 0; cut <= full.length; cut++) {
            Files.write(walFile(1), Arrays.copyOf(full, cut));
            int whole = 0;
            while (whole < ends.size() && ends.get(whole) <= cut) {
                whole++;
            }
            assertSameRecords(written.subList(0, whole), replayAll(fs, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL));
        }
    }

    @Test
    void aZeroFilledTailIsATornTail() throws IOException {
        List<Long> ends = new ArrayList<>();
        List<WalRecord> written = writeRecords(3, 4, ends);
        Files.write(walFile(1), new byte[4096], java.nio.file.StandardOpenOption.APPEND);
        List<WalRecord> replayed = new ArrayList<>();
        ReplayReport report = WalReplayer.replay(fs, List.of(walFile(1)), 0, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, replayed::add);
        assertSameRecords(written, replayed);
        assertEquals(4096, report.droppedTailBytes());
        assertTrue(report.files().getFirst().hasTornTail());
    }

    @Test
    void aFlippedBitInAnyEarlierRecordIsCorruptionPointInTimeStopsBeforeItSkipSkipsIt() throws IOException {
        List<Long> ends = new ArrayList<>();
        List<WalRecord> written = writeRecords(11, 5, ends);
        byte[] clean = Files.readAllBytes(walFile(1));
        long firstRecord = WalFormat.FILE_HEADER_BYTES;
        for (int victim = 0; victim < written.size() - 1; victim++) {
            long start = victim == 0 ? firstRecord : ends.get(victim - 1);
            long end = ends.get(victim);
            for (long bit = start * 8; bit < end * 8; bit += 7) {
                byte[] damaged = clean.clone();
                damaged[(int) (bit / 8)] ^= (byte) (1 << (bit % 8));
                Files.write(walFile(1), damaged);
                final long at = start;
                CorruptionException e = assertThrows(CorruptionException.class,
                        () -> replayAll(fs, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL), "bit " + bit);
                assertTrue(e.offset() >= at && e.offset() < end, "offset " + e.offset() + " outside record [" + at + "," + end + ")");
                assertTrue(e.file().endsWith(DatabaseLayout.walFileName(1)), e.file());

                List<WalRecord> pit = new ArrayList<>();
                ReplayReport r = WalReplayer.replay(fs, List.of(walFile(1)), 0, WalRecoveryMode.POINT_IN_TIME, pit::add);
                assertSameRecords(written.subList(0, victim), pit);
                assertNotNull(r.stoppedAt());
                assertEquals(at, r.stoppedAt().offset());

                List<WalRecord> skip = new ArrayList<>();
                ReplayReport s = WalReplayer.replay(fs, List.of(walFile(1)), 0, WalRecoveryMode.SKIP_CORRUPTED, skip::add);
                List<WalRecord> expected = new ArrayList<>(written);
                expected.remove(victim);
                assertSameRecords(expected, skip);
                assertEquals(1, s.skippedRecords());
            }
        }
    }

    /**
     * Skip-corrupted mode searches once per damaged record. With headers that pass their
     * checksum inside each damaged record, each claiming a payload to the end of the file, every
     * search stayed within its own cap while all of them together took time quadratic in the
     * file's size. The searches of a file now share one budget: once it is spent, the rest of
     * the file is skipped and reported. Honest damage, every other record, is all stepped over.
     */
    @Test
    void skippingManyDamagedRecordsSharesOneSearchBudgetPerFile() throws IOException {
        List<Long> ends = new ArrayList<>();
        List<WalRecord> written = writeRecords(17, 400, ends);
        byte[] clean = Files.readAllBytes(walFile(1));

        byte[] honest = clean.clone();
        for (int i = 0; i < written.size(); i += 2) {
            long start = i == 0 ? WalFormat.FILE_HEADER_BYTES : ends.get(i - 1);
            honest[(int) start + WalFormat.RECORD_HEADER_BYTES + 1] ^= 0x40;
        }
        Files.write(walFile(1), honest);
        List<WalRecord> survivors = new ArrayList<>();
        ReplayReport h = WalReplayer.replay(fs, List.of(walFile(1)), 0, WalRecoveryMode.SKIP_CORRUPTED, survivors::add);
        assertEquals(written.size() / 2, survivors.size(), "every undamaged record replays");
        assertEquals(written.size() / 2, h.skippedRecords());

        byte[] hostile = clean.clone();
        ByteBuffer w = ByteBuffer.wrap(hostile).order(ByteOrder.LITTLE_ENDIAN);
        int planted = 0;
        for (int i = 0; i < written.size(); i += 2) {
            long start = i == 0 ? WalFormat.FILE_HEADER_BYTES : ends.get(i - 1);
            // Three fake headers in every other record's payload: the first breaks the record,
            // and each passes its own checksum, claiming a payload to the end of the file.
            for (int f = 0; f < 3 && start + WalFormat.RECORD_HEADER_BYTES * (f + 2) <= ends.get(i); f++) {
                int at = (int) start + WalFormat.RECORD_HEADER_BYTES * (f + 1);
                w.putInt(at + WalFormat.LENGTH_OFFSET, hostile.length - at - WalFormat.RECORD_HEADER_BYTES);
                w.put(at + WalFormat.TYPE_OFFSET, WalFormat.TYPE_PUT);
                w.putInt(at + WalFormat.CRC_OFFSET, 0x12345678);
                w.putInt(at + WalFormat.HEADER_CRC_OFFSET, Crc32c.of(hostile, at, WalFormat.HEADER_CRC_OFFSET));
                planted++;
            }
        }
        assertTrue(planted > written.size(), "fake headers planted: " + planted);
        Files.write(walFile(1), hostile);
        List<WalRecord> replayed = new ArrayList<>();
        ReplayReport r = WalReplayer.replay(fs, List.of(walFile(1)), 0, WalRecoveryMode.SKIP_CORRUPTED, replayed::add);
        ReplayReport.Skipped last = r.files().getFirst().skipped().getLast();
        assertTrue(last.what().contains("the rest of the file was not searched"), last.what());
        assertEquals(hostile.length, last.offset() + last.length(), "skipped to the end of the file");
        assertTrue(r.skippedRecords() < written.size() / 4, "gave up early: " + r.skippedRecords() + " searches");
    }

    /**
     * Unforced sectors reach the disk in any order: a lost one reads as zeros while a later one
     * holds intact records. In the newest file that is a torn tail; a flipped bit at the same
     * place, or the same zeros in an older file (forced whole before the next began), is not.
     */
    @Test
    void aLostSectorBeforeIntactRecordsIsATornTailOnlyInTheNewestFile() throws IOException {
        List<Long> ends = new ArrayList<>();
        List<WalRecord> written = writeRecords(41, 80, ends);
        byte[] intact = Files.readAllBytes(walFile(1));
        int sector = FileLayer.SECTOR_BYTES;
        int lost = intact.length / 2 / sector * sector;
        assertTrue(lost + 2 * sector < intact.length, "intact records follow the lost sector");
        int kept = (int) ends.stream().filter(end -> end <= lost).count();

        byte[] zeroed = intact.clone();
        Arrays.fill(zeroed, lost, lost + sector, (byte) 0);
        Files.write(walFile(1), zeroed);
        List<WalRecord> replayed = new ArrayList<>();
        ReplayReport report = WalReplayer.replay(fs, WalReplayer.walFiles(fs, walDir, 0), 0,
                WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, replayed::add);
        assertSameRecords(written.subList(0, kept), replayed);
        ReplayReport.FileReport file = report.files().getFirst();
        assertNotNull(file.lostWrites());
        assertTrue(file.lostWrites().contains("intact records from offset"), file.lostWrites());
        assertEquals(kept == 0 ? WalFormat.FILE_HEADER_BYTES : ends.get(kept - 1), file.validEnd());
        assertEquals(intact.length - file.validEnd(), file.droppedTailBytes());

        byte[] flipped = intact.clone();
        flipped[lost + sector / 2] ^= 0x04;
        Files.write(walFile(1), flipped);
        assertThrows(CorruptionException.class, () -> replayAll(fs, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL));

        Files.write(walFile(1), zeroed);
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 2, written.getLast().lastSequence(),
                Durability.none())) {
            wal.append(List.of(WalTestSupport.randomOp(new RandomIntents(42, WalTestSupport.DIM))));
        }
        CorruptionException older = assertThrows(CorruptionException.class,
                () -> replayAll(fs, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL));
        assertTrue(older.getMessage().contains("not the newest WAL file"), older.getMessage());
    }

    /**
     * Zeros a record holds itself are not lost writes: a flipped bit in a header, or in a payload
     * whose zero runs never fill a whole sector, stays corruption in the newest file.
     */
    @Test
    void zerosInsideRecordsDoNotMakeAFlippedBitATornTail() throws IOException {
        List<WalRecord> written = new ArrayList<>();
        List<Long> ends = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.none())) {
            RandomIntents gen = new RandomIntents(43, 100);
            for (int i = 0; i < 30; i++) {
                float[] padded = new float[100];
                padded[0] = 1; // 396 zero bytes: less than a sector, whatever the alignment
                List<WalOp> ops = List.of(new WalOp.Put(gen.next().toBuilder().embedding(padded).build()));
                written.add(new WalRecord(wal.append(ops), ops));
                ends.add(Files.size(walFile(1)));
            }
        }
        byte[] intact = Files.readAllBytes(walFile(1));
        int middle = ends.get(10).intValue();
        for (int at : new int[] {middle + 3, middle + WalFormat.RECORD_HEADER_BYTES + 200}) {
            byte[] flipped = intact.clone();
            flipped[at] ^= 0x10;
            Files.write(walFile(1), flipped);
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> replayAll(fs, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL), "flip at " + at);
            assertEquals(middle, e.offset());
        }
    }

    @Test
    void damageInAnOlderFileIsNeverATornTail() throws IOException {
        RandomIntents gen = new RandomIntents(5, WalTestSupport.DIM);
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.none())) {
            wal.append(List.of(WalTestSupport.randomOp(gen)));
            wal.append(List.of(WalTestSupport.randomOp(gen)));
            wal.rotate(2);
            wal.append(List.of(WalTestSupport.randomOp(gen)));
        }
        byte[] first = Files.readAllBytes(walFile(1));
        Files.write(walFile(1), Arrays.copyOf(first, first.length - 3));
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> replayAll(fs, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL));
        assertTrue(e.getMessage().contains("not the newest WAL file"), e.getMessage());
        ReplayReport pit = WalReplayer.replay(fs, WalReplayer.walFiles(fs, walDir, 0), 0, WalRecoveryMode.POINT_IN_TIME, r -> { });
        assertEquals(1, pit.recordsApplied());
        assertTrue(pit.files().get(1).ignored(), "files after the stop point are not replayed");
    }

    /**
     * An older file cut exactly at a record boundary carries no damage a checksum can see; only
     * the hole in the sequence numbers at the start of the next file gives it away.
     */
    @Test
    void anOlderFileCutAtARecordBoundaryLeavesAHoleThatIsNeverReplayedOver() throws IOException {
        RandomIntents gen = new RandomIntents(17, WalTestSupport.DIM);
        List<WalRecord> written = new ArrayList<>();
        long cut;
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync())) {
            for (int i = 0; i < 3; i++) {
                List<WalOp> ops = WalTestSupport.randomOps(gen);
                written.add(new WalRecord(wal.append(ops), ops));
                wal.awaitDurable(wal.lastSequence());
            }
            cut = Files.size(walFile(1));
            List<WalOp> lost = WalTestSupport.randomOps(gen);
            written.add(new WalRecord(wal.append(lost), lost));
            wal.rotate(2);
            List<WalOp> ops = WalTestSupport.randomOps(gen);
            written.add(new WalRecord(wal.append(ops), ops));
        }
        assertSameRecords(written, replayAll(fs, walDir, WalRecoveryMode.ABSOLUTE_CONSISTENCY));
        Files.write(walFile(1), Arrays.copyOf(Files.readAllBytes(walFile(1)), (int) cut));

        for (WalRecoveryMode strict : List.of(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, WalRecoveryMode.ABSOLUTE_CONSISTENCY)) {
            CorruptionException e = assertThrows(CorruptionException.class, () -> replayAll(fs, walDir, strict));
            assertTrue(e.file().endsWith(DatabaseLayout.walFileName(1)), "the file that was cut is named: " + e.file());
            assertEquals(cut, e.offset(), "where it now ends");
            String missing = (written.get(2).lastSequence() + 1) + ".." + written.get(3).lastSequence();
            assertTrue(e.getMessage().contains(missing + " are missing"), e.getMessage());
        }
        List<WalRecord> pit = new ArrayList<>();
        ReplayReport r = WalReplayer.replay(fs, WalReplayer.walFiles(fs, walDir, 0), 0, WalRecoveryMode.POINT_IN_TIME, pit::add);
        assertSameRecords(written.subList(0, 3), pit);
        assertEquals(WalFormat.FILE_HEADER_BYTES, r.stoppedAt().offset());
        assertTrue(r.stoppedAt().file().endsWith(DatabaseLayout.walFileName(2)));

        List<WalRecord> skip = new ArrayList<>();
        ReplayReport s = WalReplayer.replay(fs, WalReplayer.walFiles(fs, walDir, 0), 0, WalRecoveryMode.SKIP_CORRUPTED, skip::add);
        assertSameRecords(List.of(written.get(0), written.get(1), written.get(2), written.get(4)), skip);
        assertEquals(1, s.skippedRecords(), "the hole is reported even though no byte is damaged");
    }

    /** Records the MANIFEST says are in segments need not be in the WAL; anything above must be. */
    @Test
    void theFirstRecordMustFollowTheManifestsLastSequence() throws IOException {
        RandomIntents gen = new RandomIntents(23, WalTestSupport.DIM);
        List<WalRecord> written = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 50, Durability.none())) {
            for (int i = 0; i < 4; i++) {
                List<WalOp> ops = WalTestSupport.randomOps(gen);
                written.add(new WalRecord(wal.append(ops), ops));
            }
        }
        assertSameRecords(written, replay(50));
        assertSameRecords(written.subList(2, 4), replay(written.get(1).lastSequence()));
        CorruptionException e = assertThrows(CorruptionException.class, () -> replay(40),
                "a WAL that starts above the MANIFEST's last sequence lost the records between");
        assertTrue(e.getMessage().contains("MANIFEST's last sequence 40: sequences 41..50"), e.getMessage());

        // The reports name the place themselves; the reason said it again ("F at offset 16: F at offset 16: ...").
        for (WalRecoveryMode lenient : List.of(WalRecoveryMode.SKIP_CORRUPTED, WalRecoveryMode.POINT_IN_TIME)) {
            ReplayReport r = WalReplayer.replay(fs, List.of(walFile(1)), 40, lenient, record -> { });
            String reason = lenient == WalRecoveryMode.SKIP_CORRUPTED
                    ? r.files().getFirst().skipped().getFirst().what() : r.stoppedAt().what();
            assertEquals(e.what(), reason, lenient.name());
        }
    }

    /**
     * A hole blamed on the file before the one it is found in keeps that file's name in the
     * reason: a skip or stop report names only the file and offset where the hole was met, so
     * the reason is the one place that says which file lost the records. Here the earlier file
     * holds a header and nothing else, so it ends at offset 16, the very offset where the next
     * file's first record starts: only the file, not the offset, tells the two places apart.
     */
    @Test
    void aHoleBlamedOnTheFileBeforeKeepsThatFilesNameInTheReason() throws IOException {
        Files.createDirectories(walDir);
        Files.write(walFile(1), WalFile.header(1).array());
        RandomIntents gen = new RandomIntents(29, WalTestSupport.DIM);
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 2, 50, Durability.none())) {
            wal.append(WalTestSupport.randomOps(gen));
        }
        List<Path> files = List.of(walFile(1), walFile(2));
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> WalReplayer.replay(fs, files, 40, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, record -> { }));
        assertEquals(walFile(1).toString(), e.file(), "the empty earlier file is the likelier culprit");
        assertEquals(WalFormat.FILE_HEADER_BYTES, e.offset(), "it ends after its header");

        ReplayReport skip = WalReplayer.replay(fs, files, 40, WalRecoveryMode.SKIP_CORRUPTED, record -> { });
        ReplayReport.Skipped skipped = skip.files().get(1).skipped().getFirst();
        assertEquals(WalFormat.FILE_HEADER_BYTES, skipped.offset(), "met where file 2's first record starts");
        assertEquals(e.getMessage(), skipped.what(), "the reason names file 1, which the report does not");

        ReplayReport pit = WalReplayer.replay(fs, files, 40, WalRecoveryMode.POINT_IN_TIME, record -> { });
        assertEquals(walFile(2), pit.stoppedAt().file());
        assertEquals(WalFormat.FILE_HEADER_BYTES, pit.stoppedAt().offset());
        assertEquals(e.getMessage(), pit.stoppedAt().what(), "the reason names file 1, which the stop does not");
    }

    private List<WalRecord> replay(long afterSequence) {
        List<WalRecord> out = new ArrayList<>();
        WalReplayer.replay(fs, List.of(walFile(1)), afterSequence, WalRecoveryMode.ABSOLUTE_CONSISTENCY, out::add);
        return out;
    }

    @Test
    void rotationSplitsRecordsAcrossFilesAndReplayJoinsThem() throws IOException {
        RandomIntents gen = new RandomIntents(9, WalTestSupport.DIM);
        List<WalRecord> written = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 3, 0, Durability.sync())) {
            for (int f = 0; f < 3; f++) {
                for (int i = 0; i < 4; i++) {
                    List<WalOp> ops = WalTestSupport.randomOps(gen);
                    long first = wal.append(ops);
                    written.add(new WalRecord(first, ops));
                }
                assertEquals(3 + f, wal.rotate(4 + f));
            }
            assertEquals(6, wal.currentFileNumber());
        }
        assertEquals(3, WalReplayer.walFiles(fs, walDir, 0).size(), "the last file took no record and was deleted at close");
        assertSameRecords(written, replayAll(fs, walDir, WalRecoveryMode.ABSOLUTE_CONSISTENCY));
        List<WalRecord> fromFive = new ArrayList<>();
        WalReplayer.replay(fs, WalReplayer.walFiles(fs, walDir, 5), 11, WalRecoveryMode.ABSOLUTE_CONSISTENCY, fromFive::add);
        assertSameRecords(written.subList(8, 12), fromFive);
    }

    @Test
    void recordsAtOrBelowTheCutOffAreNotApplied() throws IOException {
        List<Long> ends = new ArrayList<>();
        List<WalRecord> written = writeRecords(13, 6, ends);
        long cutOff = written.get(2).lastSequence();
        List<WalRecord> replayed = new ArrayList<>();
        ReplayReport r = WalReplayer.replay(fs, List.of(walFile(1)), cutOff, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, replayed::add);
        assertSameRecords(written.subList(3, 6), replayed);
        assertEquals(written.getLast().lastSequence(), r.lastSequence());
        assertTrue(r.isClean());
    }

    @Test
    void aHalfWrittenHeaderOfTheNewestFileIsDroppedButAnOlderOneIsCorruption() throws IOException {
        writeRecords(17, 2, new ArrayList<>());
        Files.write(walFile(2), new byte[] {'T', 'W'});
        List<WalRecord> replayed = replayAll(fs, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL);
        assertEquals(2, replayed.size());
        Files.write(walFile(3), WalFile.header(3).array());
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> replayAll(fs, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL));
        assertEquals(0, e.offset());
        assertTrue(e.file().endsWith(DatabaseLayout.walFileName(2)));
    }

    @Test
    void recoveryModesParseTheirCommandLineNames() {
        assertEquals(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, WalRecoveryMode.parse("tolerate-tail"));
        assertEquals(WalRecoveryMode.ABSOLUTE_CONSISTENCY, WalRecoveryMode.parse("absolute"));
        assertEquals(WalRecoveryMode.POINT_IN_TIME, WalRecoveryMode.parse("point-in-time"));
        assertEquals(WalRecoveryMode.SKIP_CORRUPTED, WalRecoveryMode.parse("skip-corrupted"));
        assertThrows(IllegalArgumentException.class, () -> WalRecoveryMode.parse("lenient"));
        assertFalse(WalRecoveryMode.POINT_IN_TIME.label().isEmpty());
    }
}
