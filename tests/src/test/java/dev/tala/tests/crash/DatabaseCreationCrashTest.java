package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The first open creates the database, and its parent directories; a crash anywhere in it. */
class DatabaseCreationCrashTest {
    static final int DIM = 8;

    @TempDir
    Path work;

    private static Options options() {
        return Options.builder().dimension(DIM).durability(Durability.sync()).build();
    }

    /** A kill (files as written) or a power loss after each operation of the creating open: the next open works. */
    @Test
    void aCrashWhileCreatingLeavesADirectoryTheNextOpenAccepts() throws Exception {
        List<String> failures = new ArrayList<>();
        int crashPoints = 0;
        for (int k = 0; ; k++) {
            boolean crashed = false;
            for (PowerLossMode mode : modesAndKill()) {
                Path root = Files.createDirectories(work.resolve("k" + k + "-" + mode));
                Path dir = root.resolve("a").resolve("b").resolve("db");
                FaultInjectingFileLayer fs = new FaultInjectingFileLayer(root.resolve("stash"));
                fs.crashAfter(k);
                try {
                    TalaDB.open(dir, options().toBuilder().fileLayer(fs).build()).close();
                } catch (RuntimeException e) {
                    // the simulated machine stopped
                }
                if (!fs.hasCrashed()) {
                    continue;
                }
                crashed = true;
                if (mode != null) {
                    fs.powerLoss(mode, k);
                }
                Intent x = new RandomIntents(k, DIM).next();
                try (TalaDB db = TalaDB.open(dir, options())) {
                    db.put(x);
                } catch (RuntimeException e) {
                    failures.add("after op " + k + " (" + fs.crashedAt() + "), " + (mode == null ? "kill" : mode) + ": " + e);
                    continue;
                }
                try (TalaDB db = TalaDB.open(dir, options())) {
                    assertEquals(Optional.of(x), db.get(x.id()));
                }
            }
            if (!crashed) {
                break;
            }
            crashPoints++;
        }
        assertTrue(crashPoints > 10, "the sweep reached into the creation: " + crashPoints + " crash points");
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** Power loss after a SYNC write to a database whose open created its parents: the write is there. */
    @Test
    void theParentsAnOpenCreatesAreDurable() throws Exception {
        Path dir = work.resolve("a").resolve("b").resolve("db");
        FaultInjectingFileLayer fs = new FaultInjectingFileLayer(work.resolve("stash"));
        TalaDB db = TalaDB.open(dir, options().toBuilder().fileLayer(fs).build());
        Intent x = new RandomIntents(1, DIM).next();
        db.put(x);
        fs.powerLoss();
        try {
            db.close();
        } catch (RuntimeException e) {
            // the simulated machine is down
        }
        try (TalaDB again = TalaDB.open(dir, options().toBuilder().fileLayer(LocalFileLayer.INSTANCE).build())) {
            assertEquals(Optional.of(x), again.get(x.id()), "the acknowledged write survived the power loss");
        }
    }

    /**
     * The shrunk case the long differential run found: power lost right after creation, an
     * open that retires the empty WAL file and writes nothing (so its own WAL file is deleted at
     * close), then a write. The write's WAL file was numbered from the files on disk alone, below
     * the MANIFEST's log number, and the next open deleted it as obsolete.
     */
    @Test
    void aWalFileIsNeverNumberedBelowTheLogNumber() throws Exception {
        Path dir = work.resolve("db");
        FaultInjectingFileLayer fs = new FaultInjectingFileLayer(work.resolve("stash-0"));
        TalaDB created = TalaDB.open(dir, options().toBuilder().fileLayer(fs).build());
        fs.powerLoss(PowerLossMode.DROP_UNSYNCED, 0);
        try {
            created.close();
        } catch (RuntimeException e) {
            // the simulated machine is down
        }
        TalaDB.open(dir, options()).close();
        Intent x = new RandomIntents(2, DIM).next();
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(x);
        }
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertEquals(Optional.of(x), db.get(x.id()), db.recoveryReport().summary());
        }
    }

    /** Each power-loss mode, and null for a kill that leaves the files as written. */
    private static List<PowerLossMode> modesAndKill() {
        List<PowerLossMode> modes = new ArrayList<>(List.of(PowerLossMode.values()));
        modes.add(null);
        return modes;
    }
}
