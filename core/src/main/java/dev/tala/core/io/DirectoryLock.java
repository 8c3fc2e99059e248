package dev.tala.core.io;

import java.io.IOException;
import java.nio.file.Path;

/** An exclusive lock on a database directory, released on close. */
public interface DirectoryLock extends AutoCloseable {
    Path path();

    /**
     * Checks that the file at {@link #path()} is still the one this lock holds. When the
     * database directory was deleted or moved while open (and perhaps a new database made at
     * the same path), files must no longer be created or deleted by path: they would be
     * another database's.
     *
     * @throws IOException naming the lock file, when it is gone or is another file
     */
    default void checkHeld() throws IOException {
    }

    @Override
    void close() throws IOException;
}
