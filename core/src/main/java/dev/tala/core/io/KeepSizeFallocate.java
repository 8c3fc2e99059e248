package dev.tala.core.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Linux {@code fallocate(2)} with {@code FALLOC_FL_KEEP_SIZE}, called through the FFM linker
 * because Java has no API for it: gives a file disk blocks ahead of its writes without changing
 * its length or its contents. A write into blocks the file already has skips the file system's
 * per-page block reservation (about 100 ns of each 1.7 KB appended record on ext4 here, see
 * docs/PERFORMANCE.md, stop 24). RocksDB preallocates its WAL files the same way.
 *
 * <p>The call opens the file by name, so the caller must not rename it meanwhile. Where
 * {@link LinuxFileCalls} are not to be had, {@link #reserve} does nothing and returns false.
 */
final class KeepSizeFallocate {
    private static final int MAX_INTERRUPTED_TRIES = 8;

    private KeepSizeFallocate() {
    }

    /** Whether {@link #reserve} can do anything in this process. */
    static boolean available() {
        return LinuxFileCalls.get() != null;
    }

    /**
     * Gives {@code file} disk blocks for the bytes {@code [position, position + length)}.
     *
     * @return false, having done nothing, where this process or the file's file system cannot
     *         preallocate (tmpfs and ext4 can)
     * @throws IOException naming the file, range and the C library's error (no space left, say)
     */
    static boolean reserve(Path file, long position, long length) throws IOException {
        if (position < 0 || length <= 0) {
            throw new IllegalArgumentException("cannot preallocate " + length + " bytes at " + position + " of " + file);
        }
        LinuxFileCalls c = LinuxFileCalls.get();
        if (c == null) {
            return false;
        }
        return c.withDescriptor(file, LinuxFileCalls.O_WRONLY, (state, fd) -> {
            int errno = errnoRetryingInterrupts(state,
                    () -> c.fallocate(state, fd, LinuxFileCalls.FALLOC_FL_KEEP_SIZE, position, length));
            if (errno == LinuxFileCalls.EOPNOTSUPP || errno == LinuxFileCalls.ENOSYS) {
                return false;
            }
            if (errno != 0) {
                // A refused fallocate may have kept the blocks it got before it ran out
                // (ext4 does; tmpfs gives them back): past the end of the file, where nothing
                // reads them, they would hold the disk's last free space until the file is
                // deleted, and the write that follows would fail on a disk with room left.
                // ftruncate to the same length drops blocks past the end (ext4 truncates
                // "even if i_size didn't change"); only when the range lies past every byte written.
                long size = Files.size(file);
                if (size <= position) {
                    c.ftruncate(state, fd, size);
                }
                throw c.failure("fallocate", "preallocating", file, position, length, errno);
            }
            return true;
        }, errno -> {
            throw c.failure("open", "preallocating", file, position, length, errno);
        });
    }

    /**
     * Gives back the blocks past the end of {@code file} that {@link #reserve} gave it and no
     * write filled, as RocksDB does when it closes a preallocated file: they stay with the file
     * until it is deleted otherwise, and a WAL file an open keeps for replay is kept until a
     * flush, one per open. ftruncate to the file's own length changes neither length nor contents
     * (ext4 drops the blocks past the end "even if i_size didn't change"). Like {@link #reserve},
     * it opens the file by name; a file gone meanwhile has nothing to give back.
     *
     * @return false, having done nothing, where this process cannot call ftruncate or the file is gone
     * @throws IOException naming the file and the C library's error
     */
    static boolean releaseBeyondEnd(Path file) throws IOException {
        LinuxFileCalls c = LinuxFileCalls.get();
        if (c == null) {
            return false;
        }
        return c.withDescriptor(file, LinuxFileCalls.O_WRONLY, (state, fd) -> {
            long size = Files.size(file);
            int errno = errnoRetryingInterrupts(state, () -> c.ftruncate(state, fd, size));
            if (errno != 0) {
                throw c.failure("ftruncate", "releasing the preallocated blocks past the end of", file, size, 0, errno);
            }
            return true;
        }, errno -> {
            if (errno == LinuxFileCalls.ENOENT) {
                return false;
            }
            throw c.failure("open", "releasing the preallocated blocks past the end of", file, 0, 0, errno);
        });
    }

    /** A C call that returns 0, or -1 with its error in errno. */
    private interface CCall {
        int run() throws Throwable;
    }

    /** Makes {@code call}, again while a signal interrupts it (EINTR), and returns its errno: 0 when it succeeded. */
    private static int errnoRetryingInterrupts(MemorySegment state, CCall call) throws Throwable {
        int errno = 0;
        for (int tries = 0; tries < MAX_INTERRUPTED_TRIES; tries++) {
            errno = call.run() == 0 ? 0 : LinuxFileCalls.errno(state);
            if (errno != LinuxFileCalls.EINTR) {
                break;
            }
        }
        return errno;
    }

}
