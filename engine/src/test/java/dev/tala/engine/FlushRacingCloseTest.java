package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * flush() waited until its memtable was no longer pending, and close() empties the pending
 * list without flushing it: a flush() whose last look came before close() set the closed flag
 * and whose next came after close() had finished returned normally, as if its memtable were in a
 * segment, while it was only in the WAL. (A service flushing before copying the segment files
 * would copy them without its last writes.) It must throw DatabaseClosedException instead.
 *
 * <p>The window is one 1 ms sleep of the flushing thread; it is held open deterministically by
 * running flush() on a virtual thread and keeping every carrier busy while close() runs.
 */
class FlushRacingCloseTest {
    static final int DIM = 4;

    @TempDir
    Path dir;

    @Test
    void aFlushWhoseMemtableCloseLeftInTheWalIsRefusedNotReportedDone() throws Exception {
        CountDownLatch flusherBlocked = new CountDownLatch(1);
        CountDownLatch releaseFlusher = new CountDownLatch(1);
        AtomicBoolean blockSegments = new AtomicBoolean(true);
        FileLayer layer = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public WritableFile create(Path file) throws IOException {
                if (file.getParent().getFileName().toString().equals("segments") && blockSegments.getAndSet(false)) {
                    flusherBlocked.countDown();
                    try {
                        releaseFlusher.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new InterruptedIOException();
                    }
                }
                return super.create(file);
            }
        };
        Options options = Options.builder().dimension(DIM).durability(Durability.none()).backgroundCompaction(false)
                .fileLayer(layer).build();
        TalaDB db = TalaDB.open(dir, options);
        AtomicBoolean spin = new AtomicBoolean(true);
        List<Thread> spinners = new ArrayList<>();
        try {
            db.put(intent(1));
            // The flusher takes the first memtable and is held while it creates its segment.
            Thread first = Thread.ofPlatform().daemon().start(() -> {
                try {
                    db.flush();
                } catch (DatabaseClosedException expected) {
                    // close() came first
                }
            });
            assertTrue(flusherBlocked.await(10, TimeUnit.SECONDS), "the flusher never started");

            db.put(intent(2));
            CompletableFuture<Object> second = new CompletableFuture<>();
            Thread flushing = Thread.ofVirtual().start(() -> {
                try {
                    db.flush();
                    second.complete("returned normally");
                } catch (Throwable t) {
                    second.complete(t);
                }
            });
            awaitStack(flushing, frames -> frames.contains("TalaDB.flush") && frames.contains("sleep"),
                    "the second flush never waited for its memtable");

            // Every carrier busy: the flushing thread cannot run again until the spinners stop.
            int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                    Runtime.getRuntime().availableProcessors());
            for (int i = 0; i < carriers; i++) {
                spinners.add(Thread.ofVirtual().start(() -> {
                    while (spin.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            AtomicBoolean probeRan = new AtomicBoolean();
            Thread.ofVirtual().start(() -> probeRan.set(true));
            Thread.sleep(200);
            assertFalse(probeRan.get(), "could not keep the " + carriers + " carriers busy");

            Thread closing = Thread.ofPlatform().daemon().start(db::close);
            awaitStack(closing, frames -> frames.contains("Flusher.shutdown"), "close never stopped the flusher");
            releaseFlusher.countDown(); // the first memtable's flush ends; the second's never starts
            closing.join(20_000);
            assertFalse(closing.isAlive(), "close hangs");
            first.join(20_000);

            spin.set(false);
            Object outcome = second.get(20, TimeUnit.SECONDS);
            int segments;
            try (TalaDB again = TalaDB.openReadOnly(dir)) {
                segments = again.liveSegments().size();
            }
            assertEquals(1, segments, "only the first memtable is in a segment");
            assertTrue(outcome instanceof DatabaseClosedException,
                    "flush() of a memtable close left in the WAL: " + outcome);
        } finally {
            spin.set(false);
            releaseFlusher.countDown();
            db.close();
        }
    }

    private static void awaitStack(Thread t, Predicate<String> seen, String otherwise) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (seen.test(Arrays.toString(t.getStackTrace()))) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError(otherwise + ": " + Arrays.toString(t.getStackTrace()));
    }

    private static Intent intent(long n) {
        return Intent.builder().id(IntentId.of(1, n)).timestampNs(n).embedding(new float[] {1, n, 0, 0}).build();
    }
}
