package dev.tala.core.concurrent;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * Bounded waits that an interrupt of the waiting thread does not cut short, for closing: a
 * close called from a cancelled task (its interrupt flag set) must still wait for background
 * work before it unmaps what that work reads. The interrupt is kept for the caller.
 */
public final class UninterruptibleWaits {
    private UninterruptibleWaits() {
    }

    private interface TimedWait {
        boolean await(long nanos) throws InterruptedException;
    }

    /** {@link ExecutorService#awaitTermination}, for up to {@code patience} whatever interrupts arrive. */
    public static boolean awaitTermination(ExecutorService executor, Duration patience) {
        return await(patience, nanos -> executor.awaitTermination(nanos, TimeUnit.NANOSECONDS));
    }

    /** {@link Lock#tryLock(long, TimeUnit)}, for up to {@code patience} whatever interrupts arrive. */
    public static boolean tryLock(Lock lock, Duration patience) {
        return await(patience, nanos -> lock.tryLock(nanos, TimeUnit.NANOSECONDS));
    }

    private static boolean await(Duration patience, TimedWait wait) {
        long deadline = System.nanoTime() + patience.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return wait.await(Math.max(0, deadline - System.nanoTime()));
                } catch (InterruptedException e) {
                    interrupted = true; // the flag is clear now, so the next wait blocks
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
