package dev.tala.core.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** A file open for positional reads; safe for concurrent readers. */
public interface ReadableFile extends Closeable {
    Path path();

    long size() throws IOException;

    /**
     * Fills the remaining space of {@code destination} from {@code position}.
     *
     * @throws java.io.EOFException if the file ends first
     */
    void readFully(long position, ByteBuffer destination) throws IOException;
}
