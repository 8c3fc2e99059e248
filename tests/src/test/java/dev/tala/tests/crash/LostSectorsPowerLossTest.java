package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss that keeps any subset of the unforced sectors ({@link PowerLossMode#LOST_SECTORS}),
 * with several WAL records unforced at once: a later record can survive an earlier one. The
 * sweeps' scenarios have one SYNC writer, so at most one record is ever unforced there.
 */
class LostSectorsPowerLossTest {
    /** Records of a few hundred bytes: a sector holds one or two, and many span a boundary. */
    static final int DIM = 48;

    @TempDir
    Path work;

    /** Without forces, the intents that come back are the first ones written, whatever sectors survived. */
    @Test
    void unforcedWritesComeBackAsAPrefixAndTheDatabaseOpens() throws Exception {
        int outOfOrder = 0;
        int someBack = 0;
        for (int seed = 0; seed < 16; seed++) {
            Path dir = Files.createDirectories(work.resolve("none-" + seed)).resolve("db");
            FaultInjectingFileLayer fs = new FaultInjectingFileLayer(work.resolve("stash-none-" + seed));
            TalaDB db = TalaDB.open(dir, Options.builder().dimension(DIM).durability(Durability.none())
                    .fileLayer(fs).build());
            RandomIntents gen = new RandomIntents(seed, DIM);
            List<Intent> written = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Intent x = gen.next();
                db.put(x);
                written.add(x);
            }
            fs.powerLoss(PowerLossMode.LOST_SECTORS, seed);
            closeQuietly(db);
            try (TalaDB again = TalaDB.open(dir, Options.builder().dimension(DIM).build())) {
                int back = 0;
                while (back < written.size() && again.get(written.get(back).id()).isPresent()) {
                    back++;
                }
                for (int i = back; i < written.size(); i++) {
                    assertTrue(again.get(written.get(i).id()).isEmpty(), "seed " + seed + ": intent " + i
                            + " came back after intent " + back + " did not");
                }
                assertEquals(back, again.stats().intents());
                someBack += back > 0 ? 1 : 0;
                if (again.recoveryReport().actions().stream().anyMatch(a -> a.reason().contains("out of order"))) {
                    outOfOrder++;
                }
            }
        }
        assertTrue(outOfOrder > 0, "no seed lost a sector before intact records");
        assertTrue(someBack > 0, "no seed kept the first sectors, so only the empty prefix was checked");
    }

    /**
     * SYNC writers sharing forces, in recycled WAL files (records overwrite zeros in place):
     * a crash at the k-th file operation, then the power goes. Every acknowledged write is back.
     */
    @Test
    void acknowledgedSyncWritesSurviveWithEightWriters() throws Exception {
        List<String> failures = new ArrayList<>();
        int runs = 0;
        for (int k = 40; k < 400; k += 19) {
            runs++;
            Path dir = Files.createDirectories(work.resolve("sync-" + k)).resolve("db");
            FaultInjectingFileLayer fs = new FaultInjectingFileLayer(work.resolve("stash-sync-" + k));
            Options options = Options.builder().dimension(DIM).durability(Durability.sync())
                    .memtableBytes(256 * 1024).walRecycleFiles(2).build();
            TalaDB db = TalaDB.open(dir, options.toBuilder().fileLayer(fs).build());
            Set<IntentId> acknowledged = ConcurrentHashMap.newKeySet();
            fs.crashAfter(k);
            int writers = 8;
            CountDownLatch done = new CountDownLatch(writers);
            for (int t = 0; t < writers; t++) {
                RandomIntents gen = new RandomIntents(1000L * k + t, DIM);
                Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 100; i++) {
                            Intent x = gen.next();
                            db.put(x);
                            acknowledged.add(x.id());
                        }
                    } catch (RuntimeException crashed) {
                        // the simulated machine stopped
                    } finally {
                        done.countDown();
                    }
                });
            }
            done.await();
            fs.powerLoss(PowerLossMode.LOST_SECTORS, k);
            closeQuietly(db);
            try (TalaDB again = TalaDB.open(dir, options.toBuilder().fileLayer(LocalFileLayer.INSTANCE).build())) {
                long lost = acknowledged.stream().filter(id -> again.get(id).isEmpty()).count();
                if (lost > 0) {
                    failures.add("k=" + k + " (crashed at " + fs.crashedAt() + "): " + lost + " of "
                            + acknowledged.size() + " acknowledged writes lost");
                }
            } catch (RuntimeException e) {
                failures.add("k=" + k + " (crashed at " + fs.crashedAt() + "): " + e);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " of " + runs + " crashes:\n" + String.join("\n", failures));
    }

    private static void closeQuietly(TalaDB db) {
        try {
            db.close();
        } catch (RuntimeException e) {
            // The simulated machine is down; its files are what the next open sees.
        }
    }
}
