package dev.tala.wal;

import static dev.tala.wal.WalTestSupport.assertSameRecords;
import static dev.tala.wal.WalTestSupport.replayAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Promises of the log that the other WAL tests did not hold it to: each test here failed
 * against one plausible change to the log (named in its comment) and passes on the log as it is.
 */
class WalDurabilityGapsTest {
    final FileLayer local = LocalFileLayer.INSTANCE;
    @TempDir
    Path dir;

    private static Path walFile(Path walDir, long n) {
        return walDir.resolve(DatabaseLayout.walFileName(n));
    }

    /**
     * A rotation finishes the current file: everything appended so far is written and forced
     * before the log moves on. A record appended before the rotation and not yet waited for
     * is acknowledged by it; if the old file were only written, a power loss took the record
     * while the next file's forced records survived, leaving a hole the next open refuses.
     * (Fails when rotate skips the force of the finished file.)
     */
    @Test
    void aRotationForcesTheFileItFinishesInEveryDurabilityMode() throws Exception {
        for (Durability durability : List.of(Durability.sync(), Durability.none(), Durability.batch(Duration.ofDays(1)))) {
            WalTestSupport.FaultyWalDir faulty = WalTestSupport.FaultyWalDir.create(dir.resolve(durability.mode().name()));
            RandomIntents gen = new RandomIntents(31, WalTestSupport.DIM);
            List<WalRecord> written = new ArrayList<>();
            WriteAheadLog wal = WriteAheadLog.create(faulty.fs(), faulty.walDir(), 1, 0, durability);
            List<WalOp> before = List.of(WalTestSupport.randomOp(gen));
            long a = wal.append(before);
            written.add(new WalRecord(a, before));
            wal.rotate(2);
            wal.awaitDurable(a); // the rotation covered it
            List<WalOp> after = List.of(WalTestSupport.randomOp(gen));
            written.add(new WalRecord(wal.append(after), after));
            wal.sync();
            faulty.fs().powerLoss();
            assertSameRecords(written, replayAll(local, faulty.walDir(), WalRecoveryMode.TOLERATE_CORRUPTED_TAIL));
        }
    }

    /**
     * A hole of a single sequence number between the MANIFEST's last sequence and the first
     * record is a hole like any other. (Fails when the check is off by one.)
     */
    @Test
    void aFirstRecordOneSequencePastTheManifestsNextIsAHole() throws IOException {
        Path walDir = dir.resolve("wal");
        RandomIntents gen = new RandomIntents(23, WalTestSupport.DIM);
        try (WriteAheadLog wal = WriteAheadLog.create(local, walDir, 1, 50, Durability.none())) {
            wal.append(List.of(WalTestSupport.randomOp(gen)));
            wal.append(List.of(WalTestSupport.randomOp(gen)));
        }
        for (WalRecoveryMode strict : List.of(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, WalRecoveryMode.ABSOLUTE_CONSISTENCY)) {
            CorruptionException e = assertThrows(CorruptionException.class, () -> WalReplayer.replay(local,
                    List.of(walFile(walDir, 1)), 49, strict, r -> { }), strict + ": sequence 50 is in no segment and no WAL file");
            assertTrue(e.getMessage().contains("sequences 50..50"), e.getMessage());
        }
        ReplayReport pit = WalReplayer.replay(local, List.of(walFile(walDir, 1)), 49, WalRecoveryMode.POINT_IN_TIME, r -> { });
        assertEquals(0, pit.recordsApplied(), "point-in-time stops at the hole");
    }

    /**
     * A ready name means durable zeros (FORMAT.md): the next open reuses a ready file as it is.
     * If its zeros were not forced before it took the name, a power loss brought back its
     * records from its previous life, and a log reusing it replayed them after its own, as
     * corruption. (Fails when the zero-fill renames to ready without forcing.)
     */
    @Test
    void aReadyFileHoldsZerosAfterAPowerLoss() throws Exception {
        WalTestSupport.FaultyWalDir faulty = WalTestSupport.FaultyWalDir.create(dir);
        Path walDir = faulty.walDir();
        FaultInjectingFileLayer fs = faulty.fs();
        RandomIntents gen = new RandomIntents(19, WalTestSupport.DIM);
        WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync(), 1);
        long last = 0;
        for (int i = 0; i < 40; i++) {
            last = wal.append(List.of(WalTestSupport.randomOp(gen)));
            wal.awaitDurable(last);
        }
        wal.rotate(2);
        wal.retire(walFile(walDir, 1));
        fs.syncDirectory(walDir);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (wal.stats().freeFiles() < 1) {
            assertTrue(System.nanoTime() < deadline, "no free WAL file became ready within 30 s");
            Thread.sleep(2);
        }
        fs.syncDirectory(walDir); // any later directory sync makes the ready name durable
        fs.powerLoss();
        try {
            wal.close();
        } catch (IOException | RuntimeException expected) {
            // the power is off
        }
        Path ready = walDir.resolve(DatabaseLayout.readyWalFileName(1));
        assertTrue(Files.exists(ready), "the ready file survived under its name");

        List<WalRecord> written = new ArrayList<>();
        try (WriteAheadLog next = WriteAheadLog.create(local, walDir, 5, last, Durability.sync(), 1, List.of(ready))) {
            assertEquals(1, next.stats().filesReused());
            for (int i = 0; i < 3; i++) {
                List<WalOp> ops = List.of(WalTestSupport.randomOp(gen));
                long s = next.append(ops);
                next.awaitDurable(s);
                written.add(new WalRecord(s, ops));
            }
        }
        List<WalRecord> replayed = new ArrayList<>();
        WalReplayer.replay(local, List.of(walFile(walDir, 5)), last, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, replayed::add);
        assertSameRecords(written, replayed);
        List<WalRecord> strict = new ArrayList<>();
        WalReplayer.replay(local, List.of(walFile(walDir, 5)), last, WalRecoveryMode.ABSOLUTE_CONSISTENCY, strict::add);
        assertSameRecords(written, strict);
    }

    /**
     * A log that does not force every write loses its unforced sectors in any order at a power
     * loss. The file header is forced when the file starts, so a lost first sector never takes
     * it: whatever survives replays as a prefix of what was written, never as a file whose
     * header is gone while records after it are intact (corruption: the database would not
     * open). (Fails when a new file's header is not forced.)
     */
    @Test
    void lostSectorsOfANoneModeLogNeverTakeTheFileHeader() throws Exception {
        for (long seed = 0; seed < 24; seed++) {
            WalTestSupport.FaultyWalDir faulty = WalTestSupport.FaultyWalDir.create(dir.resolve("seed-" + seed));
            RandomIntents gen = new RandomIntents(seed, WalTestSupport.DIM);
            List<WalRecord> written = new ArrayList<>();
            WriteAheadLog wal = WriteAheadLog.create(faulty.fs(), faulty.walDir(), 1, 0, Durability.none());
            for (int i = 0; i < 1000 && Files.size(walFile(faulty.walDir(), 1)) < 4 * FileLayer.SECTOR_BYTES; i++) {
                List<WalOp> ops = WalTestSupport.randomOps(gen);
                long s = wal.append(ops);
                wal.awaitDurable(s + ops.size() - 1);
                written.add(new WalRecord(s, ops));
            }
            faulty.fs().powerLoss(FaultInjectingFileLayer.PowerLossMode.LOST_SECTORS, seed);
            final long at = seed;
            List<WalRecord> replayed = new ArrayList<>();
            try {
                WalReplayer.replay(local, WalReplayer.walFiles(local, faulty.walDir(), 0), 0,
                        WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, replayed::add);
            } catch (CorruptionException e) {
                throw new AssertionError("seed " + at + ": a power loss in NONE mode left a log that does not open: "
                        + e.getMessage(), e);
            }
            assertSameRecords(written.subList(0, replayed.size()), replayed);
        }
    }

    /**
     * Zeros a damaged record holds in its payload do not make a flipped bit in its header a
     * torn tail: only zeros in the part that fails its checksum (here the header) can be
     * writes the crash lost. A record with a long zero run (a sparse embedding of 2048
     * floats) spans a whole zero sector. (Fails when the search for a lost sector looks past
     * the failing part of the record.)
     */
    @Test
    void aFlippedHeaderBitBeforeAZeroSectorInTheSameRecordIsCorruption() throws IOException {
        Path walDir = dir.resolve("wal");
        List<Long> ends = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(local, walDir, 1, 0, Durability.none())) {
            RandomIntents gen = new RandomIntents(47, 2048);
            for (int i = 0; i < 8; i++) {
                float[] sparse = new float[2048];
                sparse[0] = 1; // 8188 zero bytes: a whole aligned sector, wherever the record starts
                wal.append(List.of(new WalOp.Put(gen.next().toBuilder().embedding(sparse).build())));
                ends.add(Files.size(walFile(walDir, 1)));
            }
        }
        byte[] intact = Files.readAllBytes(walFile(walDir, 1));
        int victim = ends.get(3).intValue();
        byte[] flipped = intact.clone();
        flipped[victim + WalFormat.SEQUENCE_OFFSET] ^= 0x01;
        Files.write(walFile(walDir, 1), flipped);
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> replayAll(local, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL),
                "a flipped bit with intact records after it is corruption, not a torn tail");
        assertEquals(victim, e.offset());
    }

    /**
     * In NONE mode a write is acknowledged once the operating system has it: it survives the
     * death of the process, so it is in the file before the log is closed. (Fails when a NONE
     * log acknowledges a record still in its buffer.)
     */
    @Test
    void aNoneModeAcknowledgementMeansTheRecordIsInTheFile() throws IOException {
        Path walDir = dir.resolve("wal");
        RandomIntents gen = new RandomIntents(53, WalTestSupport.DIM);
        List<WalRecord> written = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(local, walDir, 1, 0, Durability.none())) {
            for (int i = 0; i < 5; i++) {
                List<WalOp> ops = WalTestSupport.randomOps(gen);
                long s = wal.append(ops);
                wal.awaitDurable(s + ops.size() - 1);
                written.add(new WalRecord(s, ops));
            }
            // The process could die here: what a reader of the file sees is what the next open replays.
            assertSameRecords(written, replayAll(local, walDir, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL));
        }
    }

    /**
     * Closing writes out and forces what the log still buffers: records acknowledged in NONE
     * mode before a clean close survive a power loss after it. (Fails when close only writes.)
     */
    @Test
    void aCleanCloseForcesTheLog() throws Exception {
        WalTestSupport.FaultyWalDir faulty = WalTestSupport.FaultyWalDir.create(dir);
        RandomIntents gen = new RandomIntents(59, WalTestSupport.DIM);
        List<WalRecord> written = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(faulty.fs(), faulty.walDir(), 1, 0, Durability.none())) {
            for (int i = 0; i < 5; i++) {
                List<WalOp> ops = WalTestSupport.randomOps(gen);
                long s = wal.append(ops);
                if (i % 2 == 0) {
                    wal.awaitDurable(s + ops.size() - 1);
                }
                written.add(new WalRecord(s, ops));
            }
        }
        faulty.fs().powerLoss();
        assertSameRecords(written, replayAll(local, faulty.walDir(), WalRecoveryMode.ABSOLUTE_CONSISTENCY));
    }
}
