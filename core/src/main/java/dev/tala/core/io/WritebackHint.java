package dev.tala.core.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Linux {@code sync_file_range(2)} with {@code SYNC_FILE_RANGE_WRITE} alone: starts writing a
 * range of a file's dirty pages to the disk and returns without waiting for them, and without
 * touching the file's metadata or the disk's cache. It makes nothing durable; what it buys is a
 * later force with little left to write. RocksDB's {@code bytes_per_sync} does the same.
 *
 * <p>The file is opened by name (read-only is enough) for the one call, so a file deleted or
 * renamed meanwhile is simply not found. A writeback error seen here is also kept for the next
 * {@code fsync} of the file: this descriptor's error cursor is its own, so the error still
 * reaches the force that must report it.
 */
final class WritebackHint {
    private WritebackHint() {
    }

    /** Whether {@link #start} can do anything in this process. */
    static boolean available() {
        LinuxFileCalls c = LinuxFileCalls.get();
        return c != null && c.hasSyncFileRange();
    }

    /**
     * Starts writeback of {@code [position, position + length)} of {@code file}.
     *
     * @return false, having done nothing, where this process cannot; true otherwise, also when
     *         the file is gone
     * @throws IOException naming the file, the range and the C library's error
     */
    static boolean start(Path file, long position, long length) throws IOException {
        if (position < 0 || length <= 0) {
            throw new IllegalArgumentException("cannot write back " + length + " bytes at " + position + " of " + file);
        }
        if (!available()) {
            return false;
        }
        LinuxFileCalls c = LinuxFileCalls.get();
        return c.withDescriptor(file, LinuxFileCalls.O_RDONLY, (state, fd) -> {
            if (c.syncFileRange(state, fd, position, length, LinuxFileCalls.SYNC_FILE_RANGE_WRITE) == 0) {
                return true;
            }
            int errno = LinuxFileCalls.errno(state);
            if (errno == LinuxFileCalls.ENOSYS || errno == LinuxFileCalls.EOPNOTSUPP) {
                return false;
            }
            throw c.failure("sync_file_range", "writing back", file, position, length, errno);
        }, errno -> {
            if (errno == LinuxFileCalls.ENOENT) {
                return true; // deleted or renamed meanwhile: nothing of it is left to write
            }
            throw c.failure("open", "writing back", file, position, length, errno);
        });
    }
}
