package dev.tala.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs commands in a child JVM whose heap is smaller than the database's intents together, as
 * an operator's container may give it: what streams must not hold them all.
 */
class SmallHeapTest {
    private static final int DIM = 1024;
    private static final int INTENTS = 12_000; // 4 KiB embeddings: about 48 MiB of floats
    private static final String HEAP = "-Xmx32m";

    @TempDir
    static Path work;
    static Path db;

    record Run(int exit, List<String> out, List<String> err) {
    }

    @BeforeAll
    static void database() {
        db = work.resolve("db");
        RandomIntents gen = new RandomIntents(5, DIM);
        try (TalaDB t = TalaDB.open(db, Options.builder().dimension(DIM).durability(Durability.none()).build())) {
            for (int written = 0; written < INTENTS; written += 500) {
                WriteBatch batch = new WriteBatch();
                for (int i = 0; i < 500; i++) {
                    Intent x = gen.next();
                    batch.put(x);
                }
                t.write(batch);
            }
            t.flush();
        }
    }

    static Run tala(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(CliSubprocessTest.commandLine(args));
        cmd.add(1, HEAP);
        Path out = Files.createTempFile(work, "stdout", ".txt");
        Path err = Files.createTempFile(work, "stderr", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "tala " + String.join(" ", args) + " finished");
        List<String> errLines = Files.readAllLines(err, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.startsWith("WARNING: Using incubator modules")).toList();
        return new Run(p.exitValue(), Files.readAllLines(out, StandardCharsets.UTF_8), errLines);
    }

    @Test
    void scanJsonStreamsARangeLargerThanTheHeap() throws Exception {
        Run r = tala("scan", "--db", db.toString(), "--from", "0", "--to", Long.toString(Long.MAX_VALUE),
                "--limit", "1000000", "--json");
        assertEquals(0, r.exit(), "stderr: " + r.err());
        assertEquals(INTENTS, r.out().size());
    }

    /** Running out of heap is one line naming the command and what to do, not the JVM's stack trace. */
    @Test
    void runningOutOfHeapIsOneLine() throws Exception {
        String id = tala("scan", "--db", db.toString(), "--from", "0", "--to", Long.toString(Long.MAX_VALUE),
                "--limit", "1", "--json").out().getFirst().replaceAll(".*\"id\":\"([^\"]+)\".*", "$1");
        // Every hit is held with its embedding until the ranking is done: more than the heap.
        Run r = tala("search", "--db", db.toString(), "--like", id, "-k", "1000000", "--json");
        assertEquals(1, r.exit());
        assertEquals(1, r.err().size(), "one line: " + r.err());
        assertTrue(r.err().getFirst().startsWith("tala search: out of memory"), r.err().getFirst());
    }
}
