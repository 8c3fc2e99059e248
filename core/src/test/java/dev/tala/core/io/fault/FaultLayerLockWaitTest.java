package dev.tala.core.io.fault;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.DirectoryLock;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer's lock() waits (up to 30 s) for shared holders; FaultInjectingFileLayer held
 * its mutex meanwhile, so the holder it waited for could not make its next file call (from a
 * review; it waited the full 30 s).
 */
class FaultLayerLockWaitTest {
    @TempDir
    Path tmp;

    @Test
    void readerCanKeepWorkingWhileAWriterWaitsForIt() throws Exception {
        FaultInjectingFileLayer fs = new FaultInjectingFileLayer(tmp.resolve("stash"));
        Path lockFile = tmp.resolve("LOCK");
        DirectoryLock shared = fs.lockShared(lockFile);
        // Threads of their own: the common pool has one thread on a 2-core machine.
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool();
        CompletableFuture<Thread> writerThread = new CompletableFuture<>();
        CompletableFuture<DirectoryLock> writer = CompletableFuture.supplyAsync(() -> {
            writerThread.complete(Thread.currentThread());
            try {
                return fs.lock(lockFile);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, threads);
        // Go on only once the writer polls for the lock: after a fixed sleep a slow machine could
        // have the reader's step run before the writer waited at all, and the test prove nothing.
        Thread waiting = writerThread.get(35, TimeUnit.SECONDS);
        long patience = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!pollsForTheLock(waiting)) {
            assertTrue(System.nanoTime() < patience, "the writer never waited for the lock");
            Thread.sleep(5);
        }
        // The reader goes on with its open: one more file call, then it releases its lock.
        CompletableFuture<Boolean> readerStep = CompletableFuture.supplyAsync(() -> fs.exists(tmp), threads);
        long start = System.nanoTime();
        try {
            readerStep.get(35, TimeUnit.SECONDS);
        } finally {
            shared.close();
        }
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        DirectoryLock writerLock = writer.handle((l, e) -> l).get(35, TimeUnit.SECONDS);
        boolean writerGotIt = writerLock != null;
        if (writerGotIt) {
            // Released, not left to the JVM: the process-wide table of held locks keys them by
            // inode, and a later test's new file on the same inode found itself "locked".
            writerLock.close();
        }
        threads.shutdown();
        assertTrue(waitedMs < 2_000, "the reader's exists() waited " + waitedMs + " ms for the writer's lock()");
        assertTrue(writerGotIt, "the writer should get the lock once the reader is done");
    }

    private static boolean pollsForTheLock(Thread t) {
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getClassName().equals("dev.tala.core.io.LocalDirectoryLocks")) {
                return true;
            }
        }
        return false;
    }
}
