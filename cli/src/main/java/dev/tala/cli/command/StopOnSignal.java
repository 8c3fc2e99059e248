package dev.tala.cli.command;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * While open, a SIGTERM or Ctrl-C does not end the process at once: it interrupts the thread
 * that opened this, which stops its work the way an interrupted database call does (a
 * compaction deletes its unfinished output), and the process ends once that thread has closed
 * this, or after {@link #PATIENCE}. Opened before the database and so closed after it. Without
 * it, a signal in the middle of {@code tala compact} left a finished output the MANIFEST did not
 * list: {@code verify} then reported it, and the next open moved it to {@code lost/}.
 */
final class StopOnSignal implements AutoCloseable {
    /** How long the process waits for the command to stop before it ends regardless. */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread hook;

    StopOnSignal() {
        Thread command = Thread.currentThread();
        hook = new Thread(() -> {
            command.interrupt();
            try {
                closed.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tala-stop-on-signal");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    @Override
    public void close() {
        closed.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running (a signal came): it was waiting for this.
        }
    }
}
