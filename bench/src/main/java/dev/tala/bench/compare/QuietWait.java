package dev.tala.bench.compare;

import java.time.Duration;

/**
 * Polls a store until its background work is done ({@link Store#awaitQuiet}). A store whose
 * background work failed, or that is still busy after {@link #TIMEOUT}, ends the run with an
 * error that says what is left, instead of leaving the bench waiting with no word.
 */
final class QuietWait {
    /** Far more than either store needed to compact the million intents of the write-amplification run. */
    static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final long POLL_MILLIS = 500;

    /** One look at a store's background work. */
    interface Look {
        /**
         * What is still pending, or null once the store is quiet.
         *
         * @throws IllegalStateException if the store's background work has failed
         */
        String pending() throws Exception;
    }

    private QuietWait() {
    }

    static void await(String store, Look look) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        for (String pending = look.pending(); pending != null; pending = look.pending()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(store + " still has background work after " + TIMEOUT.toMinutes()
                        + " minutes: " + pending);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
