package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BATCH durability forces the WAL on a timer, on a thread no writer waits on. When that force
 * fails, the database must fail as for a writer's own force (RECOVERY.md: "the database turns
 * read-only"; CLI.md: "failed is true once the database has stopped accepting writes after an
 * error"), without waiting for a write to find out: before, only the log knew, `stats().failed`
 * stayed false and the flusher and compactor went on.
 */
class PeriodicForceFailureTest {
    private static final int DIM = 8;

    @TempDir
    Path work;

    @Test
    void aFailedPeriodicForceFailsTheDatabaseAtOnce() throws Exception {
        Path dir = work.resolve("db");
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        Options batch = Options.builder().dimension(DIM).fileLayer(fault).durability(Durability.batch(Duration.ofMillis(5)))
                .build();
        RandomIntents gen = new RandomIntents(1, DIM);
        List<Intent> forced = new ArrayList<>();
        try (TalaDB synced = TalaDB.open(dir, batch.toBuilder().durability(Durability.sync()).build())) {
            for (int i = 0; i < 5; i++) {
                Intent x = gen.next();
                synced.put(x);
                forced.add(x);
            }
        }
        TalaDB db = TalaDB.open(dir, batch);
        try {
            fault.failForces(p -> p.getFileName().toString().endsWith(".wal"));
            try {
                db.put(gen.next()); // logged; its periodic force is the one that fails
            } catch (DatabaseFailedException e) {
                // the periodic force ran between this write's append and its wait
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!db.stats().failed() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(db.stats().failed(), "the periodic force failed, but the database does not say so");
            DatabaseFailedException refused = assertThrows(DatabaseFailedException.class, () -> db.put(gen.next()));
            assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
            fault.powerLoss();
        } finally {
            try {
                db.close();
            } catch (RuntimeException e) {
                // the simulated machine is down
            }
        }
        try (TalaDB again = TalaDB.open(dir, Options.builder().dimension(DIM).fileLayer(LocalFileLayer.INSTANCE).build())) {
            for (Intent x : forced) {
                assertEquals(Optional.of(x), again.get(x.id()));
            }
        }
    }
}
