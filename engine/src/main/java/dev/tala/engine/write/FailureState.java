package dev.tala.engine.write;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.error.LoggedErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the database has hit an I/O error it cannot prove harmless. The first failure wins
 * and is permanent for this open: writes are refused, reads continue from what is in memory
 * and in segments.
 */
public final class FailureState {
    private static final Logger LOG = LoggerFactory.getLogger(FailureState.class);
    private volatile DatabaseFailedException failure;

    public void fail(String what, Throwable cause) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failure = cause instanceof DatabaseFailedException d ? d
                    : new DatabaseFailedException(what + ": " + cause.getMessage()
                            + "; the database is read-only until it is reopened", cause);
        }
        LOG.error("database failed: {}", failure.getMessage(), LoggedErrors.traceOf(cause));
    }

    public boolean hasFailed() {
        return failure != null;
    }

    /** The failure, or null. */
    public DatabaseFailedException failure() {
        return failure;
    }

    public void checkWritable() {
        DatabaseFailedException f = failure;
        if (f != null) {
            throw new DatabaseFailedException(f.getMessage(), f);
        }
    }
}
