package dev.tala.core.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** A file open for writing. Not safe for concurrent use; callers serialize. */
public interface WritableFile extends Closeable {
    Path path();

    /** Appends every remaining byte of {@code source} at the end of the file. */
    void append(ByteBuffer source) throws IOException;

    /** Writes every remaining byte of {@code source} at {@code position}. */
    void write(long position, ByteBuffer source) throws IOException;

    /** Makes every byte written so far durable. A failure means they may be lost: never retry. */
    void force() throws IOException;

    /** Shortens the file to {@code size} bytes. */
    void truncate(long size) throws IOException;

    /** The file's length, including unforced bytes. */
    long size() throws IOException;
}
