package dev.tala.core.error;

import java.nio.file.Path;

/** An operation on a database (or snapshot) after it was closed. */
public final class DatabaseClosedException extends TalaException {
    public DatabaseClosedException(String message) {
        super(message);
    }

    /** The one wording for "this database was closed", whichever layer noticed. */
    public static DatabaseClosedException database(Path dir) {
        return new DatabaseClosedException("the database in " + dir + " is closed");
    }
}
