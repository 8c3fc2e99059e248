package dev.tala.core.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * The only way TalaDB touches files. Every byte the database writes or reads passes through
 * one of these methods, so a test can substitute {@link dev.tala.core.io.fault.FaultInjectingFileLayer}
 * and see exactly what a crash, a torn write or a full disk would leave behind.
 *
 * <p>Durability follows POSIX: bytes are durable after {@link WritableFile#force()}; a file's
 * existence (create, rename, delete) is durable after {@link #syncDirectory(Path)} of its parent.
 */
public interface FileLayer {
    /**
     * The unit storage is assumed to persist whole: a crash keeps or loses each sector of
     * unforced data, in any order, but never part of one.
     */
    int SECTOR_BYTES = 512;

    /** Creates {@code file} empty (truncating an existing one) and opens it for writing. */
    WritableFile create(Path file) throws IOException;

    /** Opens an existing file for appending at its end. */
    WritableFile openForAppend(Path file) throws IOException;

    ReadableFile openForRead(Path file) throws IOException;

    /** Maps the whole file read-only; the mapping lives until the region is closed. */
    MappedRegion map(Path file) throws IOException;

    /** Atomically renames {@code source} to {@code target}, replacing it if it exists. */
    void rename(Path source, Path target) throws IOException;

    /** Deletes the file if it exists. */
    void delete(Path file) throws IOException;

    boolean exists(Path path);

    /** Whether {@code path} is a directory (false if it does not exist). */
    boolean isDirectory(Path path);

    long size(Path file) throws IOException;

    /** The regular files directly inside {@code dir}, sorted by name; empty if it does not exist. */
    List<Path> list(Path dir) throws IOException;

    void createDirectories(Path dir) throws IOException;

    /** Makes the creates, renames and deletes of entries in {@code dir} durable. */
    void syncDirectory(Path dir) throws IOException;

    /**
     * Asks the operating system to start writing bytes {@code [position, position + length)} of
     * {@code file} to the disk now, and returns without waiting. A hint: nothing becomes durable
     * (only a force does that; a crash keeps or loses unforced bytes as it would without it), but
     * a later force of the file has less left to write. May be called from any thread while the
     * file is open for writing elsewhere, and for a file deleted or renamed meanwhile (then it
     * does nothing).
     *
     * @return false, having done nothing, where this layer cannot; asking again is pointless
     * @throws IOException if the operating system refused; an I/O error of the writeback
     *     itself is also kept for the file's next force, which is what must report it
     */
    default boolean startWriteback(Path file, long position, long length) throws IOException {
        return false;
    }

    /**
     * Takes an exclusive lock on {@code lockFile} (created if missing) for this process, writing
     * the holder's pid into it. While it is held shared ({@link #lockShared}), it waits for the
     * holders, up to a bound.
     *
     * @throws dev.tala.core.error.DatabaseLockedException if another opener, in this process or
     *     another, holds it
     */
    DirectoryLock lock(Path lockFile) throws IOException;

    /**
     * Takes a shared lock on {@code lockFile} (for {@code tala verify}, or for an instant to learn
     * whether a writer holds it): any number of holders at once, in this process or others, but
     * not beside the exclusive {@link #lock}. Nothing is written into the file. A missing file is
     * created empty, so that a writer coming later sees the holder; where it cannot be created
     * (no permission, a read-only file system), the lock holds nothing.
     *
     * @throws dev.tala.core.error.DatabaseLockedException if a writer holds it, or (in this
     *     process) an exclusive lock is held
     */
    DirectoryLock lockShared(Path lockFile) throws IOException;

    /** Reads a whole (small) file. */
    default byte[] readAllBytes(Path file) throws IOException {
        try (ReadableFile in = openForRead(file)) {
            long size = in.size();
            if (size > Integer.MAX_VALUE - 16) {
                throw new IOException(file + " is too large to read whole (" + size + " bytes)");
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) size);
            in.readFully(0, buffer);
            return buffer.array();
        }
    }

    /**
     * Forces an existing file's written bytes to disk through a descriptor of its own: bytes
     * another process wrote (one that was killed) and left in the page cache.
     */
    default void force(Path file) throws IOException {
        try (WritableFile out = openForAppend(file)) {
            out.force();
        }
    }

    /**
     * Writes {@code content} to {@code target} so that, after a crash, {@code target} holds
     * either its old content or all of the new: write a temporary file, force it, rename it over
     * the target, sync the directory.
     */
    default void writeAtomically(Path target, byte[] content) throws IOException {
        Path tmp = temporaryFor(target);
        try (WritableFile out = create(tmp)) {
            out.append(ByteBuffer.wrap(content));
            out.force();
        }
        rename(tmp, target);
        syncDirectory(target.getParent());
    }

    /**
     * The name a file is written under before it is renamed to {@code target}: what a crash in
     * between leaves, which the next open deletes.
     */
    static Path temporaryFor(Path target) {
        return target.resolveSibling(target.getFileName() + TEMPORARY_SUFFIX);
    }

    /** The suffix of {@link #temporaryFor}'s names. */
    String TEMPORARY_SUFFIX = ".tmp";

    /** Thrown by {@link ReadableFile#readFully} when the file ends first. */
    static EOFException shortRead(Path file, long position, int wanted, long size) {
        return new EOFException(file + ": wanted " + wanted + " bytes at offset " + position
                + " but the file has " + size);
    }
}
