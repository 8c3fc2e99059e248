package dev.tala.core.error;

/**
 * The calling thread was interrupted while it waited (for a flush, for room to write) or while
 * its own compaction ran, and the call gave up. Nothing is wrong with the database: a write
 * that threw this was not applied, a compaction that threw it left every segment as it was.
 * The thread's interrupt flag is set again, for the caller to see.
 */
public final class OperationInterruptedException extends TalaException {
    public OperationInterruptedException(String message) {
        super(message);
    }
}
