package dev.tala.core.error;

/**
 * The database hit an I/O error it cannot prove harmless (a failed force, a full disk) and is
 * now read-only. Writes are refused until it is closed and reopened, so that nothing is ever
 * acknowledged on top of data that may not be on disk.
 */
public final class DatabaseFailedException extends TalaException {
    public DatabaseFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
