package dev.tala.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command whose output can no longer be written ({@code tala export | head -1}) stops; it
 * went on reading the whole database, writing into the closed pipe, for nobody.
 */
class ClosedOutputStopsEarlyTest {
    private static final int DIM = 8;

    @TempDir
    static Path work;
    static Path db;

    @BeforeAll
    static void database() {
        db = work.resolve("db");
        RandomIntents gen = new RandomIntents(11, DIM);
        try (TalaDB t = TalaDB.open(db, Options.builder().dimension(DIM).build())) {
            for (int batches = 0; batches < 20; batches++) {
                WriteBatch batch = new WriteBatch();
                for (int i = 0; i < 1000; i++) {
                    batch.put(gen.next());
                }
                t.write(batch);
            }
            t.flush();
        }
    }

    /** A pipe whose reader has left: every write fails; counts the writes tried. */
    private static final class ClosedPipe extends OutputStream {
        int writes;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writes++;
            throw new IOException("Broken pipe");
        }
    }

    private static int writesTried(String... args) {
        PrintStream out = System.out;
        ClosedPipe pipe = new ClosedPipe();
        try {
            System.setOut(new PrintStream(pipe, true, StandardCharsets.UTF_8));
            assertEquals(0, TalaCli.run(args), "a reader that left is not an error");
        } finally {
            System.setOut(out);
        }
        return pipe.writes;
    }

    @Test
    void exportStopsOnceItsOutputIsGone() {
        int writes = writesTried("export", "--db", db.toString());
        assertTrue(writes <= 2, writes + " writes into a closed pipe");
    }

    @Test
    void scanJsonStopsOnceItsOutputIsGone() {
        int writes = writesTried("scan", "--db", db.toString(), "--from", "0", "--to", Long.toString(Long.MAX_VALUE),
                "--limit", "1000000", "--json");
        assertTrue(writes <= 2, writes + " writes into a closed pipe");
    }
}
