package dev.tala.core.io;

import java.io.IOException;
import java.nio.file.Path;

/** An exclusive lock on a database directory, released on close. */
public interface DirectoryLock extends AutoCloseable {
    Path path();

    @Override
    void close() throws IOException;
}
