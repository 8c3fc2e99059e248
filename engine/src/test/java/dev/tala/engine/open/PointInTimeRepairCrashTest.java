package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.FileTrees;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import dev.tala.wal.WalRecoveryMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A point-in-time open that crashes while it repairs the WAL (docs/RECOVERY.md, step 7) leaves
 * files that any later open reads as a prefix of the log: the files after the stop are set aside
 * before the stop's file is cut, newest first, and each move is synced, so a power loss with
 * the crash changes nothing. When the cut came first, a crash between the cut
 * and the moves left the later files after a cut one, and a skip-corrupted open took their
 * records without the cut ones: intents written later came back while earlier ones were lost.
 */
class PointInTimeRepairCrashTest {
    private static final int DIM = 8;
    private static final int FIRST_FILE_RECORDS = 10;
    private static final int LATER_FILES = 3;

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "power lost too: {0}")
    @ValueSource(booleans = {false, true})
    void aCrashAnywhereInThePointInTimeRepairLeavesAPrefixForASkipCorruptedOpen(boolean powerLoss) throws IOException {
        Options options = Options.builder().dimension(DIM).memtableBytes(64L << 20).durability(Durability.none())
                .build();
        Path original = tmp.resolve("original");
        RandomIntents gen = new RandomIntents(41, DIM);
        List<Intent> written = new ArrayList<>();
        try (TalaDB db = TalaDB.open(original, options)) {
            for (int i = 0; i < FIRST_FILE_RECORDS; i++) {
                written.add(gen.next());
                db.put(written.getLast());
            }
        }
        // Each open replays the files before it, keeps them, and logs its put in a new file.
        written.addAll(RecoveryProtocolTest.oneRecordPerOpen(original, options, gen, LATER_FILES));
        List<Path> wals = RecoveryProtocolTest.walFiles(original);
        assertEquals(1 + LATER_FILES, wals.size(), wals.toString());
        byte[] first = Files.readAllBytes(wals.getFirst());
        first[first.length / 2] ^= 0x10; // inside a record in the middle of the first file
        Files.write(wals.getFirst(), first);

        Options pointInTime = options.toBuilder().recoveryMode(WalRecoveryMode.POINT_IN_TIME).build();
        boolean crashed = true;
        for (int k = 0; crashed; k++) {
            Path dir = tmp.resolve("crash-" + k);
            FileTrees.copy(original, dir);
            FaultInjectingFileLayer layer = new FaultInjectingFileLayer(tmp.resolve("stash-" + k));
            layer.crashAfter(k);
            try (TalaDB db = TalaDB.open(dir, pointInTime.toBuilder().fileLayer(layer).build())) {
                crashed = false;
            } catch (RuntimeException e) {
                assertTrue(layer.hasCrashed(), "crash point " + k + " failed otherwise: " + e);
            }
            if (crashed && powerLoss) {
                layer.powerLoss(); // what was not forced or synced is gone
            }
            try (TalaDB db = TalaDB.open(dir, options.toBuilder().recoveryMode(WalRecoveryMode.SKIP_CORRUPTED)
                    .build())) {
                List<Boolean> present = new ArrayList<>();
                for (Intent x : written) {
                    present.add(db.get(x.id()).isPresent());
                }
                assertPrefixBesidesOneDamagedRecord(present, "after a crash at " + layer.crashedAt() + " (point "
                        + k + (powerLoss ? ", power lost" : "") + "), then a skip-corrupted open");
            }
            assertTrue(k < 200, "the point-in-time open still crashes after 200 operations");
        }
    }

    /**
     * What a skip-corrupted open may return: the intents in write order, one record (the damaged
     * one) missing, and of the rest a prefix.
     */
    private static void assertPrefixBesidesOneDamagedRecord(List<Boolean> present, String when) {
        int damaged = present.indexOf(false);
        assertTrue(damaged >= 0 && damaged < FIRST_FILE_RECORDS, when + ": the damaged record is skipped: " + present);
        boolean ended = false;
        for (int i = damaged + 1; i < present.size(); i++) {
            ended |= !present.get(i);
            assertTrue(!ended || !present.get(i), when + ": intent " + i + " is back though an earlier one (not the"
                    + " damaged record, " + damaged + ") is lost: " + present);
        }
    }
}
