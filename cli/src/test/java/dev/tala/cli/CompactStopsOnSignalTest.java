package dev.tala.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM to {@code tala compact} while its output is being written: the command stops the
 * compaction, which deletes its output, and closes the database. The process used to end at
 * once, leaving the output unlisted; verify then reported it and the next open moved it to lost/.
 */
class CompactStopsOnSignalTest {
    @TempDir
    Path work;

    @Test
    void aSignalDuringACompactionLeavesOnlyListedSegments() throws Exception {
        Path db = work.resolve("db");
        RandomIntents gen = new RandomIntents(43, 384);
        try (TalaDB t = TalaDB.open(db, Options.builder().dimension(384).durability(Durability.none())
                .backgroundCompaction(false).build())) {
            for (int flush = 0; flush < 3; flush++) {
                for (int i = 0; i < 8_000; i++) {
                    t.put(gen.next());
                }
                t.flush();
            }
        }
        Set<Path> before = segmentFiles(db);

        Process p = new ProcessBuilder(CliSubprocessTest.commandLine("compact", "--db", db.toString(), "--full"))
                .redirectErrorStream(true).redirectOutput(work.resolve("out.txt").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        boolean writing = false;
        while (!writing && p.isAlive() && System.nanoTime() < deadline) {
            writing = segmentFiles(db).stream().anyMatch(f -> !before.contains(f));
            Thread.sleep(2);
        }
        assertTrue(writing, "the compaction's output appeared while it ran: " + Files.readString(work.resolve("out.txt")));
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "tala compact ended after SIGTERM");

        String out = Files.readString(work.resolve("out.txt"));
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(db));
        assertEquals(List.of(), verify.problems(), out);
        // Stopped (its output deleted), or past the point of stopping (committed, inputs deleted).
        Set<Path> after = segmentFiles(db);
        assertTrue(after.equals(before) || (after.size() == 1 && !before.containsAll(after)), after + "\n" + out);
    }

    private static Set<Path> segmentFiles(Path db) throws IOException {
        try (Stream<Path> files = Files.list(db.resolve("segments"))) {
            return new HashSet<>(files.toList());
        }
    }
}
