package dev.tala.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From a review: a WAL failure is logged once, by the database that owns the log, in one line.
 * A failed periodic force in BATCH mode was logged by the database ("database failed: ...") and
 * again by the log's periodic sync ("periodic WAL sync failed (...)").
 */
class WalFailureLoggedOnceTest {
    @TempDir
    Path work;

    @Test
    void aFailedPeriodicForceIsLoggedOnce() throws Exception {
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        Options batch = Options.builder().dimension(8).fileLayer(fault)
                .durability(Durability.batch(Duration.ofMillis(5))).build();
        RandomIntents gen = new RandomIntents(1, 8);
        TalaDB db = TalaDB.open(work.resolve("db"), batch);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream old = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            fault.failForces(p -> p.getFileName().toString().endsWith(".wal"));
            try {
                db.put(gen.next());
            } catch (DatabaseFailedException e) {
                // the periodic force ran first
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!db.stats().failed() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(db.stats().failed());
            // The failure is logged after it is published: wait for that line (a thread held off
            // the CPU 300 ms there would leave none), then give a second one 300 ms to appear.
            for (long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                    !captured.toString(StandardCharsets.UTF_8).contains("[ERROR]") && System.nanoTime() < end; ) {
                Thread.sleep(5);
            }
            Thread.sleep(300);
        } finally {
            System.setErr(old);
            try {
                db.close();
            } catch (RuntimeException e) {
                // failed database
            }
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        List<String> errors = text.lines().filter(l -> l.startsWith("[ERROR]")).toList();
        assertEquals(1, errors.size(), "the WAL failure should be logged once, got:\n" + text);
    }
}
