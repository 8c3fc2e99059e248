package dev.tala.core.io;

import java.io.IOException;

/**
 * The database directory's {@code LOCK} is no longer the file the open locked (deleted, moved or
 * replaced while open): nothing more may be created, renamed or deleted there. Thrown apart from
 * other I/O errors because it must fail the database even where a failed step is otherwise only
 * logged (removing obsolete files).
 */
public final class DirectoryLockLostException extends IOException {
    public DirectoryLockLostException(String message) {
        super(message);
    }

    public DirectoryLockLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
