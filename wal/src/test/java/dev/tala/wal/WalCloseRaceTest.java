package dev.tala.wal;

import static dev.tala.wal.WalTestSupport.replayAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.testing.RandomIntents;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * close() writes and forces every record appended before it, in a final turn of its own. A
 * writer that comes to wait for its record while that turn runs must wait for the turn, as it
 * waits for any leader's, and be acknowledged: its record is durable and the next open replays
 * it. Telling it "the write-ahead log was closed before sequence N was made durable" makes a
 * service report (or retry) a write that took effect.
 */
class WalCloseRaceTest {
    @TempDir
    Path dir;

    @Test
    void aWriterWaitingWhileCloseForcesItsRecordIsAcknowledged() throws Exception {
        waitWhileCloseForces((wal, sequence) -> wal.awaitDurable(sequence));
    }

    /** sync() (TalaDB.syncWal) called while close forces the log: close makes it all durable. */
    @Test
    void aSyncWhileCloseForcesTheLogSucceeds() throws Exception {
        waitWhileCloseForces((wal, sequence) -> wal.sync());
    }

    interface Wait {
        void run(WriteAheadLog wal, long sequence);
    }

    private void waitWhileCloseForces(Wait wait) throws Exception {
        Race race = waitWhileCloseForces(wait, false);
        assertNull(race.closeError(), "close failed");

        List<WalRecord> replayed = replayAll(LocalFileLayer.INSTANCE, race.walDir(), WalRecoveryMode.ABSOLUTE_CONSISTENCY);
        assertEquals(1, replayed.size(), "close forced the record, so it is replayed");
        assertNull(race.writerError(), "the wait for sequence " + race.sequence() + " was refused, yet close made its"
                + " record durable and it is replayed: " + race.writerError());
    }

    /**
     * The other side of waiting for close's final turn: when its force fails, the record it was
     * making durable may not be, so the writer waiting for it must be refused as any writer
     * behind a failed force is (DatabaseFailedException: the log failed), never acknowledged,
     * and not told the log was merely closed. Fails if close takes its records for forced
     * whatever its force did, or does not fail the log when its force fails.
     */
    @Test
    void aWriterWaitingWhileClosesForceFailsIsRefusedAsTheLogFailed() throws Exception {
        Race race = waitWhileCloseForces((wal, sequence) -> wal.awaitDurable(sequence), true);
        assertTrue(race.closeError() instanceof IOException, "close reports its failed force: " + race.closeError());
        assertTrue(race.writerError() instanceof DatabaseFailedException, "the writer's record was in a force that"
                + " failed: " + race.writerError());
    }

    /** What a writer and close did when the writer came to wait while close's final force ran. */
    private record Race(Path walDir, long sequence, Throwable writerError, Throwable closeError) {
    }

    private Race waitWhileCloseForces(Wait wait, boolean failCloseForce) throws Exception {
        AtomicReference<Thread> closer = new AtomicReference<>();
        CountDownLatch closeForcing = new CountDownLatch(1);
        CountDownLatch releaseForce = new CountDownLatch(1);
        ForwardingFileLayer held = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            protected void beforeForce(Path file) throws IOException {
                if (Thread.currentThread() == closer.get()) {
                    closeForcing.countDown();
                    try {
                        releaseForce.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException(e);
                    }
                    if (failCloseForce) {
                        throw new IOException("injected: close's final force failed");
                    }
                }
            }
        };
        Path walDir = dir.resolve("wal");
        WriteAheadLog wal = WriteAheadLog.create(held, walDir, 1, 0, Durability.sync());
        RandomIntents gen = new RandomIntents(7, WalTestSupport.DIM);
        long sequence = wal.append(List.of(new WalOp.Put(gen.next())));

        AtomicReference<Throwable> closeError = new AtomicReference<>();
        Thread closing = Thread.ofPlatform().name("closer").unstarted(() -> {
            try {
                wal.close();
            } catch (Throwable e) {
                closeError.set(e);
            }
        });
        closer.set(closing);
        closing.start();
        assertTrue(closeForcing.await(30, TimeUnit.SECONDS), "close began its final force");

        // The record is in close's final turn now. Its writer comes to wait for it.
        AtomicReference<Throwable> writerError = new AtomicReference<>();
        Thread writer = Thread.ofPlatform().name("writer").start(() -> {
            try {
                wait.run(wal, sequence);
            } catch (Throwable e) {
                writerError.set(e);
            }
        });
        // Either it ends (refused) or it waits for close's turn; then let the force finish.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (writer.isAlive() && writer.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        releaseForce.countDown();
        writer.join(30_000);
        closing.join(30_000);
        assertFalse(writer.isAlive(), "the writer hangs");
        assertFalse(closing.isAlive(), "close hangs");
        return new Race(walDir, sequence, writerError.get(), closeError.get());
    }
}
