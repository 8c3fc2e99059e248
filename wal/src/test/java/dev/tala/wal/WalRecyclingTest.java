package dev.tala.wal;

import static dev.tala.wal.WalTestSupport.assertSameRecords;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** WAL files retired, zero-filled and reused in place (WalRecycler, WalFile.reuse, ZERO_FILLED replay). */
class WalRecyclingTest {
    final FileLayer fs = LocalFileLayer.INSTANCE;
    @TempDir
    Path dir;
    Path walDir;
    /** The last sequence in the retired file 1 of {@link #writeThroughAReusedFile}: "in segments". */
    long retiredThrough;

    @BeforeEach
    void setUp() {
        walDir = dir.resolve("wal");
    }

    private Path walFile(long n) {
        return walDir.resolve(DatabaseLayout.walFileName(n));
    }

    private static List<WalRecord> appendSynced(WriteAheadLog wal, RandomIntents gen, int n) {
        List<WalRecord> written = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<WalOp> ops = WalTestSupport.randomOps(gen);
            long first = wal.append(ops);
            wal.awaitDurable(first + ops.size() - 1);
            written.add(new WalRecord(first, ops));
        }
        return written;
    }

    private static void awaitFreeFiles(WriteAheadLog wal, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (wal.stats().freeFiles() < n) {
            assertTrue(System.nanoTime() < deadline, "no free WAL file became ready within 30 s");
            Thread.sleep(2);
        }
    }

    /**
     * Writes file 1 (retired and reused as file 3), file 2, and {@code lastFileRecords} records
     * into the reused file 3; returns every record written, in order.
     */
    private List<WalRecord> writeThroughAReusedFile(long seed, int lastFileRecords) throws Exception {
        RandomIntents gen = new RandomIntents(seed, WalTestSupport.DIM);
        List<WalRecord> kept = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync(), 1)) {
            retiredThrough = appendSynced(wal, gen, 40).getLast().lastSequence(); // file 1, retired
            wal.rotate(2);
            kept.addAll(appendSynced(wal, gen, 3));
            wal.retire(walFile(1));
            fs.syncDirectory(walDir);
            awaitFreeFiles(wal, 1);
            wal.rotate(3);
            assertEquals(1, wal.stats().filesReused());
            assertEquals(0, wal.stats().freeFiles());
            kept.addAll(appendSynced(wal, gen, lastFileRecords));
        }
        return kept;
    }

    @Test
    void aRetiredFileIsZeroFilledUnderASpareNameAndReusedInPlace() throws Exception {
        RandomIntents gen = new RandomIntents(5, WalTestSupport.DIM);
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync(), 1)) {
            appendSynced(wal, gen, 30);
            wal.rotate(2);
            long size = Files.size(walFile(1));
            wal.retire(walFile(1));
            assertFalse(Files.exists(walFile(1)), "the retired file's WAL name is gone at once");
            awaitFreeFiles(wal, 1);
            assertFalse(Files.exists(walDir.resolve(DatabaseLayout.freeWalFileName(1))),
                    "renamed once its zeros were forced");
            Path free = walDir.resolve(DatabaseLayout.readyWalFileName(1));
            assertTrue(DatabaseLayout.isReadyWalFile(free));
            assertTrue(DatabaseLayout.walNumber(free).isEmpty(), "replay never takes a spare file for a WAL file");
            byte[] bytes = Files.readAllBytes(free);
            assertEquals(size, bytes.length, "zero-filled in place, not truncated");
            for (int i = 0; i < bytes.length; i++) {
                assertEquals(0, bytes[i], "byte " + i + " of the free file");
            }
            wal.rotate(3);
            assertFalse(Files.exists(free), "the rotation took the free file");
            assertEquals(size, Files.size(walFile(3)), "the reused file keeps its length");
            byte[] header = Files.readAllBytes(walFile(3));
            assertEquals(WalFormat.FLAG_ZERO_FILLED, header[WalFormat.FLAGS_OFFSET]);
        }
    }

    /**
     * A free file found at open may be half zero-filled (its process stopped mid-fill): a new
     * log fills it again before reusing it, and replay of the reused file sees only its own
     * records. A log that keeps no files deletes it.
     */
    @Test
    void aFreeFileLeftByAnEarlierProcessIsZeroFilledAgainBeforeReuse() throws Exception {
        Path free = walDir.resolve(DatabaseLayout.freeWalFileName(4));
        Files.createDirectories(walDir);
        byte[] stale = new byte[256 * 1024];
        new java.util.Random(8).nextBytes(stale);
        java.util.Arrays.fill(stale, 0, 4096, (byte) 0); // a fill that got this far, then stopped
        Files.write(free, stale);
        RandomIntents gen = new RandomIntents(8, WalTestSupport.DIM);
        List<WalRecord> written;
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 7, 0, Durability.sync(), 1, List.of(free))) {
            assertEquals(0, wal.stats().filesReused(), "a free file is not reused before it is filled again");
            awaitFreeFiles(wal, 1);
            Path ready = walDir.resolve(DatabaseLayout.readyWalFileName(4));
            byte[] bytes = Files.readAllBytes(ready);
            assertEquals(stale.length, bytes.length);
            for (int i = 0; i < bytes.length; i++) {
                assertEquals(0, bytes[i], "byte " + i + " of the refilled file");
            }
            wal.rotate(8);
            assertEquals(1, wal.stats().filesReused());
            written = appendSynced(wal, gen, 5);
        }
        List<WalRecord> replayed = new ArrayList<>();
        WalReplayer.replay(fs, List.of(walFile(8)), 0, WalRecoveryMode.ABSOLUTE_CONSISTENCY, replayed::add);
        assertSameRecords(written, replayed);

        Files.write(free, stale);
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 9, 0, Durability.sync(), 0, List.of(free))) {
            assertFalse(Files.exists(free), "a log that recycles nothing deletes it");
        }
    }

    /**
     * A ready file is zero-filled and forced before it takes its name, so a log created after
     * a restart starts in it at once; one a closing log leaves behind is kept for the next.
     */
    @Test
    void aReadyFileOutlivesTheLogAndIsTheNextLogsFirstFile() throws Exception {
        RandomIntents gen = new RandomIntents(10, WalTestSupport.DIM);
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync(), 2)) {
            appendSynced(wal, gen, 20);
            wal.rotate(2);
            wal.retire(walFile(1));
            awaitFreeFiles(wal, 1);
        }
        Path ready = walDir.resolve(DatabaseLayout.readyWalFileName(1));
        assertTrue(Files.exists(ready), "the closed log left its ready file");
        long size = Files.size(ready);
        List<WalRecord> written;
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 5, 20, Durability.sync(), 2, List.of(ready))) {
            assertEquals(1, wal.stats().filesReused(), "the first file is the ready one");
            assertFalse(Files.exists(ready));
            assertEquals(size, Files.size(walFile(5)));
            written = appendSynced(wal, gen, 7);
        }
        assertEquals(WalFormat.FLAG_ZERO_FILLED, Files.readAllBytes(walFile(5))[WalFormat.FLAGS_OFFSET]);
        List<WalRecord> replayed = new ArrayList<>();
        WalReplayer.replay(fs, List.of(walFile(5)), 20, WalRecoveryMode.ABSOLUTE_CONSISTENCY, replayed::add);
        assertSameRecords(written, replayed);
    }

    @Test
    void aFullPoolDeletesWhatItCannotKeep() throws Exception {
        RandomIntents gen = new RandomIntents(6, WalTestSupport.DIM);
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync(), 1)) {
            appendSynced(wal, gen, 3);
            wal.rotate(2);
            appendSynced(wal, gen, 3);
            wal.rotate(3);
            wal.retire(walFile(1));
            wal.retire(walFile(2));
            awaitFreeFiles(wal, 1);
            assertFalse(Files.exists(walFile(2)));
            assertFalse(Files.exists(walDir.resolve(DatabaseLayout.freeWalFileName(2))), "no room: deleted");
        }
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 9, 0, Durability.sync())) {
            wal.retire(walFile(3));
            assertFalse(Files.exists(walFile(3)), "a log that recycles nothing deletes");
            assertEquals(0, wal.stats().freeFiles());
        }
    }

    @Test
    void aReusedFileReplaysEveryRecordAndItsZerosAreNotATornTailInAnyMode() throws Exception {
        List<WalRecord> written = writeThroughAReusedFile(11, 5);
        assertTrue(Files.size(walFile(3)) > Files.size(walFile(2)), "file 3 is longer than its records");
        for (WalRecoveryMode mode : WalRecoveryMode.values()) {
            List<WalRecord> replayed = new ArrayList<>();
            ReplayReport report = WalReplayer.replay(fs, WalReplayer.walFiles(fs, walDir, 0), retiredThrough, mode,
                    replayed::add);
            assertSameRecords(written, replayed);
            assertTrue(report.isClean(), mode + ": " + report);
            ReplayReport.FileReport last = report.files().getLast();
            assertTrue(last.validEnd() < last.size(), "records end before the zeros do");
        }
    }

    @Test
    void aTornLastRecordOfAReusedFileAtEveryByteReplaysExactlyTheCompletePrefix() throws Exception {
        List<WalRecord> written = writeThroughAReusedFile(12, 4);
        byte[] full = Files.readAllBytes(walFile(3));
        long[] last = lastRecordBounds(walFile(3));
        for (long cut = last[0]; cut < last[1]; cut++) {
            // A torn overwrite of a zero-filled file leaves zeros, not a shorter file, after the tear.
            byte[] torn = full.clone();
            java.util.Arrays.fill(torn, (int) cut, (int) last[1], (byte) 0);
            Files.write(walFile(3), torn);
            List<WalRecord> replayed = new ArrayList<>();
            ReplayReport report = WalReplayer.replay(fs, WalReplayer.walFiles(fs, walDir, 0), retiredThrough,
                    WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, replayed::add);
            assertSameRecords(written.subList(0, written.size() - 1), replayed);
            assertEquals(last[0], report.files().getLast().validEnd(), "cut at " + cut);
            assertTrue(report.droppedTailBytes() <= cut - last[0], "only the torn bytes count as dropped, not the zeros");
            boolean anyWritten = false;
            for (long i = last[0]; i < cut; i++) {
                anyWritten |= torn[(int) i] != 0;
            }
            if (anyWritten) {
                CorruptionException e = assertThrows(CorruptionException.class, () -> WalReplayer.replay(fs,
                        WalReplayer.walFiles(fs, walDir, 0), retiredThrough, WalRecoveryMode.ABSOLUTE_CONSISTENCY,
                        r -> { }), "absolute consistency refuses a torn tail");
                assertEquals(last[0], e.offset());
            }
        }
    }

    @Test
    void bytesAfterTheZerosOfAnOlderReusedFileAreCorruptionNotItsEnd() throws Exception {
        writeThroughAReusedFile(13, 2);
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 4, 100_000, Durability.sync())) {
            wal.awaitDurable(wal.append(List.of(new WalOp.Delete(new RandomIntents(1, WalTestSupport.DIM).next().id()))));
        }
        long[] last = lastRecordBounds(walFile(3));
        long size = Files.size(walFile(3));
        assertTrue(size - last[1] > 64, "room for a stray byte well after the records");
        try (FileChannel ch = FileChannel.open(walFile(3), StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {7}), size - 10);
        }
        CorruptionException e = assertThrows(CorruptionException.class, () -> WalReplayer.replay(fs,
                List.of(walFile(2), walFile(3), walFile(4)), retiredThrough, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, r -> { }));
        assertEquals(last[1], e.offset(), "named where the records stop");
        assertTrue(e.getMessage().contains(walFile(3).toString()), e.getMessage());
    }

    @Test
    void anUnknownHeaderFlagIsRefused() throws Exception {
        writeThroughAReusedFile(14, 1);
        assertHeaderRefused(new byte[] {4, 4}, "unknown header flags 0x4");
    }

    @Test
    void anyOneFlippedFlagBitIsRefusedInANewOrAReusedFile() throws Exception {
        writeThroughAReusedFile(15, 1);
        for (byte flags : new byte[] {0, WalFormat.FLAG_ZERO_FILLED}) {
            for (int bit = 0; bit < 16; bit++) {
                byte[] pair = {flags, flags};
                pair[bit / 8] ^= (byte) (1 << (bit % 8));
                assertHeaderRefused(pair, "differ");
            }
        }
    }

    /** Writes {@code flags} over file 2's two flag bytes and expects replay to refuse it at offset 0. */
    private void assertHeaderRefused(byte[] flags, String why) throws IOException {
        try (FileChannel ch = FileChannel.open(walFile(2), StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(flags), WalFormat.FLAGS_OFFSET);
        }
        CorruptionException e = assertThrows(CorruptionException.class, () -> WalReplayer.replay(fs,
                WalReplayer.walFiles(fs, walDir, 0), retiredThrough, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, r -> { }));
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertEquals(0, e.offset());
    }

    @Test
    void noRecordHeaderOfZerosPassesItsChecksum() {
        // nextIntactRecordAfter stops at the last non-zero byte on the strength of this.
        CRC32C crc = new CRC32C();
        crc.update(new byte[WalFormat.HEADER_CRC_OFFSET]);
        assertNotEquals(0, (int) crc.getValue());
    }

    /**
     * SYNC writers while a rotator rotates and retires finished files for reuse, under a crash
     * at a random operation and power loss: every acknowledged record not in a retired file is
     * replayed. A retired file's records count as in segments, as they are in the engine.
     */
    @Property(tries = 80)
    void inSyncModePowerLossWithReusedFilesLosesNothingAcknowledged(
            @ForAll @IntRange(min = 0, max = 300) int crashAfter,
            @ForAll FaultInjectingFileLayer.PowerLossMode mode, @ForAll long seed) throws Exception {
        Path root = Files.createTempDirectory("wal-recycle-power");
        try {
            WalTestSupport.FaultyWalDir setUp = WalTestSupport.FaultyWalDir.create(root);
            Path wd = setUp.walDir();
            FaultInjectingFileLayer faulty = setUp.fs();
            Set<Long> acknowledged = java.util.Collections.synchronizedSet(new HashSet<>());
            Set<Long> inRetiredFiles = java.util.Collections.synchronizedSet(new HashSet<>());
            long[] oldestKept = {1};
            long[] retiredThroughSeq = {0};
            faulty.crashAfter(crashAfter);
            WriteAheadLog wal;
            try {
                wal = WriteAheadLog.create(faulty, wd, 1, 0, Durability.sync(), 2);
            } catch (IOException | RuntimeException crashDuringCreate) {
                return; // nothing was acknowledged
            }
            WriteAheadLogTest.runThreads(3, t -> {
                RandomIntents gen = new RandomIntents(seed + t, WalTestSupport.DIM);
                long file = 1;
                try {
                    for (int i = 0; i < 30; i++) {
                        long s = wal.append(List.of(WalTestSupport.randomOp(gen)));
                        wal.awaitDurable(s);
                        acknowledged.add(s);
                        if (t == 0 && i % 3 == 2) {
                            long finished = wal.rotate(++file + 10);
                            // Its records are now "in segments": note them, then retire the file.
                            Path done = wd.resolve(DatabaseLayout.walFileName(finished));
                            WalReplayer.replay(faulty, List.of(done), retiredThroughSeq[0], WalRecoveryMode.ABSOLUTE_CONSISTENCY,
                                    r -> {
                                        inRetiredFiles.add(r.firstSequence());
                                        retiredThroughSeq[0] = Math.max(retiredThroughSeq[0], r.lastSequence());
                                    });
                            oldestKept[0] = finished + 1;
                            wal.retire(done);
                            faulty.syncDirectory(wd);
                            // Let the zero-fill finish (unless the crash came first), so the next rotation reuses.
                            for (int spin = 0; spin < 1000 && wal.stats().freeFiles() == 0 && !faulty.hasCrashed(); spin++) {
                                Thread.sleep(1);
                            }
                        }
                    }
                } catch (DatabaseFailedException | dev.tala.core.io.fault.SimulatedCrashException e) {
                    // the machine is going down
                } catch (dev.tala.core.error.StorageException e) {
                    // a crash inside replaying the finished file
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                wal.close();
            } catch (IOException | RuntimeException expectedAfterCrash) {
                // the machine is down
            }
            faulty.powerLoss(mode, seed);
            Set<Long> replayed = new HashSet<>();
            List<Path> files = WalReplayer.walFiles(fs, wd, oldestKept[0]);
            WalReplayer.replay(fs, files, retiredThroughSeq[0], WalRecoveryMode.TOLERATE_CORRUPTED_TAIL,
                    r -> replayed.add(r.firstSequence()));
            for (long s : acknowledged) {
                assertTrue(replayed.contains(s) || inRetiredFiles.contains(s), "acknowledged sequence " + s
                        + " lost; crash at op " + crashAfter + ", recent: " + faulty.recentOperations());
            }
        } finally {
            FileTrees.delete(root);
        }
    }

    /** [start, end) of the last record in a WAL file, found by scanning it. */
    private static long[] lastRecordBounds(Path file) throws IOException {
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            WalFileScanner scanner = new WalFileScanner(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena));
            long number = DatabaseLayout.walNumber(file).getAsLong();
            assertEquals(null, scanner.checkFileHeader(number));
            long offset = WalFormat.FILE_HEADER_BYTES;
            long[] last = null;
            while (scanner.stepAt(offset) instanceof WalFileScanner.Intact intact) {
                last = new long[] {intact.offset(), intact.end()};
                offset = intact.end();
            }
            assertTrue(last != null, file + " holds no record");
            return last;
        }
    }
}
