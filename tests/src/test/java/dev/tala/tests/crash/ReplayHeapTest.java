package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.DbStats;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An open replays a WAL of far more than its heap, when the memtable it is given is small: the
 * replay flushes as it goes (docs/RECOVERY.md, step 6). A 48 MB log, written by a process with a
 * 1 GiB memtable that died before flushing, is reopened by a process with a 48 MiB heap and a
 * 1 MiB memtable. Before the replay flushed, that open ran out of heap.
 */
class ReplayHeapTest {
    private static final int DIM = 384;
    private static final int INTENTS = 28_000;
    private static final String CHILD_HEAP = "-Xmx48m";

    @TempDir
    Path work;

    @Test
    void aWalLargerThanTheHeapIsReplayedByAnOpenWithASmallMemtable() throws Exception {
        Path db = work.resolve("db");
        try (TalaDB writer = TalaDB.open(db, Options.builder().dimension(DIM).memtableBytes(1L << 30)
                .durability(Durability.none()).backgroundCompaction(false).build())) {
            RandomIntents gen = new RandomIntents(5, DIM);
            for (int i = 0; i < INTENTS; i++) {
                writer.put(gen.next());
            }
            DbStats stats = writer.stats();
            assertEquals(0, stats.segments(), "everything stays in the WAL");
            assertTrue(stats.walBytes() > 45L << 20, "the WAL is larger than the child's heap: " + stats);
        }

        Path out = work.resolve("child.out");
        Process child = new ProcessBuilder(ChildJvm.command(CHILD_HEAP, List.of(), Child.class, db.toString())).redirectErrorStream(true).redirectOutput(out.toFile())
                .start();
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child finished");
        String output = Files.readString(out);
        assertEquals(0, child.exitValue(), "the child's open: " + output);
        assertTrue(output.contains("opened: " + INTENTS + " intents"), output);
    }

    /** Opens the database with a 1 MiB memtable and prints how many intents it holds. */
    static final class Child {
        public static void main(String[] args) {
            try (TalaDB db = TalaDB.open(Path.of(args[0]), Options.builder().memtableBytes(1L << 20)
                    .backgroundCompaction(false).build())) {
                System.out.println("opened: " + db.stats().intents() + " intents");
            }
        }
    }
}
