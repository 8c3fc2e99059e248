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

    /**
     * Asks the file system to give the file disk blocks for {@code [position, position +
     * length)} ahead of the writes that will fill them, so that those writes need not reserve
     * blocks page by page. The file's length and contents do not change, whatever happens: this
     * only makes later writes cheaper, and a power loss cannot make it visible.
     *
     * @return false, having done nothing, where this file layer or the file system cannot
     * @throws IOException if the file system refused, a full disk for instance (nothing changed)
     */
    boolean preallocate(long position, long length) throws IOException;

    /** Shortens the file to {@code size} bytes. */
    void truncate(long size) throws IOException;

    /** The file's length, including unforced bytes. */
    long size() throws IOException;
}
