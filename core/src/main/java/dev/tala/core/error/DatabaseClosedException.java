package dev.tala.core.error;

/** An operation on a database (or snapshot) after it was closed. */
public final class DatabaseClosedException extends TalaException {
    public DatabaseClosedException(String message) {
        super(message);
    }
}
