package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write batch too large for one WAL record is refused with the batch error, not an
 * OutOfMemoryError, even when its ops are outcome updates, whose logged size is known only once
 * each is resolved to the intent version it makes. A child JVM with a 64 MiB heap builds a batch
 * of a million updates of one 384-d intent (each logged as that intent, about 1.6 KB): resolving
 * all of them first took more heap than the child has. The database stays as it was and writable.
 */
class OversizedBatchHeapTest {
    private static final String CHILD_HEAP = "-Xmx64m";
    private static final int UPDATES = 1_000_000;

    @TempDir
    Path work;

    @Test
    void aMillionOutcomeUpdatesAreRefusedAsTooLargeWithoutFillingTheHeap() throws Exception {
        Path out = work.resolve("child.out");
        Process child = new ProcessBuilder(ChildJvm.command(CHILD_HEAP, List.of(), Child.class,
                work.resolve("db").toString())).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child finished");
        String output = Files.readString(out);
        assertEquals(0, child.exitValue(), "the child: " + output);
        assertTrue(output.contains("refused: batch: its first ") && output.contains(" of " + UPDATES + " operations"),
                output);
        assertTrue(output.contains("the limit for one atomic write"), output);
        assertTrue(output.contains("after: PENDING, then SUCCESS"), output);
    }

    /** Writes the batch, prints the refusal, then shows the intent unchanged and the database writable. */
    static final class Child {
        public static void main(String[] args) {
            try (TalaDB db = TalaDB.open(Path.of(args[0]), Options.builder().dimension(384).build())) {
                Intent intent = new RandomIntents(3, 384).next().withOutcome(Status.PENDING, null);
                db.put(intent);
                WriteBatch batch = new WriteBatch();
                for (int i = 0; i < UPDATES; i++) {
                    batch.attachOutcome(intent.id(), Status.SUCCESS, null);
                }
                try {
                    db.write(batch);
                    System.out.println("written");
                } catch (InvalidIntentException refused) {
                    System.out.println("refused: " + refused.getMessage());
                }
                batch = null;
                Status before = db.get(intent.id()).orElseThrow().status();
                db.write(new WriteBatch().attachOutcome(intent.id(), Status.SUCCESS, null));
                System.out.println("after: " + before + ", then " + db.get(intent.id()).orElseThrow().status());
            }
        }
    }
}
